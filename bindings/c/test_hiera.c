/*
 * The C test of libhiera's C ABI (include/hiera.h).
 *
 * usage: test_hiera EXAMPLES_DIR [--panic-hook]
 *
 * Covers every status, NULL for each pointer argument, invalid UTF-8,
 * malformed JSON, unknown fields, error objects (with temporary fixtures),
 * explanations, hiera_lookup_many, and many threads looking up through one
 * shared hiera and one shared session, checking every answer against
 * Puppet's recorded answers in EXAMPLES_DIR/expected.json.
 *
 * --panic-hook: the library was built with the `test-panic` feature, so a
 * lookup of "__hiera_test_panic__" must come back as HIERA_PANIC. Without
 * it, that key must be an ordinary missing key (the hook is not in release
 * builds).
 *
 * Environment: HIERA_TEST_THREADS (default 8), HIERA_TEST_ROUNDS (default 60).
 * Prints "N passed, M failed" and exits non-zero on any failure.
 */
#define _GNU_SOURCE
#include "hiera.h"
#include "check.h"
#include "testutil.h"

#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Sentinels: out-parameters that must not be written keep these values. */
static char UNSET_STR_STORAGE;
#define UNSET_STR (&UNSET_STR_STORAGE)
static int UNSET_HANDLE_STORAGE;
#define UNSET_HIERA ((hiera *)(void *)&UNSET_HANDLE_STORAGE)
#define UNSET_SESSION ((hiera_session *)(void *)&UNSET_HANDLE_STORAGE)

static const char *status_name(hiera_status s) {
  switch (s) {
    case HIERA_OK: return "HIERA_OK";
    case HIERA_NOT_FOUND: return "HIERA_NOT_FOUND";
    case HIERA_ERROR: return "HIERA_ERROR";
    case HIERA_NULL_ARGUMENT: return "HIERA_NULL_ARGUMENT";
    case HIERA_INVALID_ARGUMENT: return "HIERA_INVALID_ARGUMENT";
    case HIERA_PANIC: return "HIERA_PANIC";
  }
  return "(unknown status)";
}

static char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) s = NULL;
  va_end(ap);
  if (!s) {
    perror("vasprintf");
    exit(2);
  }
  return s;
}

static int contains(const char *haystack, const char *needle) {
  return haystack && strstr(haystack, needle) != NULL;
}

/* ---- fixtures ------------------------------------------------------------ */

static char examples[PATH_MAX];
static tu_expected expected;

static hiera *open_ok(const char *options) {
  hiera *h = UNSET_HIERA;
  char *err = UNSET_STR;
  hiera_status st = hiera_open(options, &h, &err);
  CHECK(st == HIERA_OK, "hiera_open(%s) = %s", options, status_name(st));
  CHECK(err == UNSET_STR, "error_json written on success");
  if (st != HIERA_OK) {
    if (err != UNSET_STR) hiera_string_free(err);
    exit(1);
  }
  return h;
}

static hiera_session *session_ok(const hiera *h, const char *scope) {
  hiera_session *s = UNSET_SESSION;
  char *err = UNSET_STR;
  hiera_status st = hiera_session_new(h, scope, &s, &err);
  CHECK(st == HIERA_OK, "hiera_session_new = %s", status_name(st));
  CHECK(err == UNSET_STR, "error_json written on success");
  if (st != HIERA_OK) exit(1);
  return s;
}

static char *examples_options(void) {
  return xasprintf("{\"hiera_config\":\"%s/hiera.yaml\",\"environmentpath\":\"%s/environments\","
                   "\"environment\":\"production\"}",
                   examples, examples);
}

static void write_file(const char *dir, const char *name, const char *text) {
  char *path = xasprintf("%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    perror(path);
    exit(2);
  }
  free(path);
}

static void make_dir(const char *dir, const char *name) {
  char *path = xasprintf("%s/%s", dir, name);
  if (mkdir(path, 0755) != 0) {
    perror(path);
    exit(2);
  }
  free(path);
}

static void remove_tree(const char *dir) {
  char *cmd = xasprintf("rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "warning: could not remove %s\n", dir);
  free(cmd);
}

/* One lookup that must write result_json (any status but NULL_ARGUMENT and
   PANIC); returns the status and stores the result (or NULL). */
static hiera_status lookup(hiera_session *s, const char *request, char **result) {
  *result = UNSET_STR;
  hiera_status st = hiera_lookup(s, request, result);
  CHECK(*result != UNSET_STR, "%s: result_json not written (%s)", request, status_name(st));
  if (*result == UNSET_STR) *result = NULL;
  return st;
}

/* ---- tests ----------------------------------------------------------------- */

static void test_versions(void) {
  CHECK(hiera_abi_version() == HIERA_ABI_VERSION, "abi %u", hiera_abi_version());
  char want[64];
  snprintf(want, sizeof want, "%d.%d.%d", HIERA_VERSION_MAJOR, HIERA_VERSION_MINOR,
           HIERA_VERSION_PATCH);
  CHECK(hiera_version() && strcmp(hiera_version(), want) == 0, "version %s, header %s",
        hiera_version(), want);
  CHECK(hiera_version() == hiera_version(), "hiera_version is one static string");
}

/* Puppet's recorded answers, one hiera_lookup each. */
static void test_expected_answers(hiera_session *s) {
  for (size_t i = 0; i < expected.count; i++) {
    tu_case *c = &expected.cases[i];
    char *req = xasprintf("{\"key\":%s}", c->key_json);
    char *out;
    hiera_status st = lookup(s, req, &out);
    if (c->value) {
      CHECK(st == HIERA_OK, "%s: %s", req, status_name(st));
      CHECK(out && strcmp(out, c->value) == 0, "%s: got %s, Puppet says %s", req, out, c->value);
    } else {
      CHECK(st == HIERA_NOT_FOUND, "%s: %s", req, status_name(st));
      CHECK(out == NULL, "%s: result_json is NULL when not found", req);
    }
    hiera_string_free(out);
    free(req);
  }
}

static void test_statuses(hiera_session *s, int panic_hook) {
  char *out;
  /* HIERA_OK, with a default too. */
  CHECK(lookup(s, "{\"key\":\"ntp::service_name\"}", &out) == HIERA_OK, "ok");
  CHECK(out && strcmp(out, "\"ntpsec\"") == 0, "%s", out);
  hiera_string_free(out);
  CHECK(lookup(s, "{\"key\":\"no::such::key\",\"default\":{\"a\":[1,2.5,null]}}", &out) ==
            HIERA_OK, "default");
  CHECK(out && strcmp(out, "{\"a\":[1,2.5,null]}") == 0, "%s", out);
  hiera_string_free(out);
  /* Several keys: the first found wins. */
  CHECK(lookup(s, "{\"key\":[\"nope\",\"ntp::service_name\"]}", &out) == HIERA_OK, "keys");
  CHECK(out && strcmp(out, "\"ntpsec\"") == 0, "%s", out);
  hiera_string_free(out);
  /* A merge, an override. */
  CHECK(lookup(s, "{\"key\":\"profile::base::packages\",\"merge\":\"unique\"}", &out) == HIERA_OK,
        "merge");
  hiera_string_free(out);
  CHECK(lookup(s, "{\"key\":\"motd\",\"override\":{\"motd\":\"hi\"}}", &out) == HIERA_OK, "over");
  CHECK(out && strcmp(out, "\"hi\"") == 0, "%s", out);
  hiera_string_free(out);
  /* HIERA_NOT_FOUND: result NULL. */
  CHECK(lookup(s, "{\"key\":\"no::such::key\"}", &out) == HIERA_NOT_FOUND, "not found");
  CHECK(out == NULL, "NULL when not found");
  /* HIERA_ERROR: an error object. */
  CHECK(lookup(s, "{\"key\":\"motd\",\"merge\":\"bogus\"}", &out) == HIERA_ERROR, "error");
  CHECK(contains(out, "{\"kind\":\"invalid_argument\",\"message\":\""), "%s", out);
  hiera_string_free(out);
  /* HIERA_INVALID_ARGUMENT: see the invalid-input tests; one here. */
  CHECK(lookup(s, "{\"key\":42}", &out) == HIERA_INVALID_ARGUMENT, "invalid");
  CHECK(contains(out, "'key' must be a string or a non-empty array of strings"), "%s", out);
  hiera_string_free(out);
  /* HIERA_NULL_ARGUMENT: see test_null_arguments. HIERA_PANIC: */
  out = UNSET_STR;
  if (panic_hook) fprintf(stderr, "(two 'test-panic hook' panic messages are expected here)\n");
  hiera_status st = hiera_lookup(s, "{\"key\":\"__hiera_test_panic__\"}", &out);
  if (panic_hook) {
    CHECK(st == HIERA_PANIC, "panic hook: %s", status_name(st));
    CHECK(out == UNSET_STR, "result_json not written on HIERA_PANIC");
    out = UNSET_STR;
    st = hiera_lookup_many(s, "[{\"key\":\"motd\"},{\"key\":\"__hiera_test_panic__\"}]", &out);
    CHECK(st == HIERA_PANIC, "panic hook in lookup_many: %s", status_name(st));
    CHECK(out == UNSET_STR, "results_json not written on HIERA_PANIC");
    /* The session still works after a caught panic. */
    CHECK(lookup(s, "{\"key\":\"ntp::service_name\"}", &out) == HIERA_OK, "after panic");
    hiera_string_free(out);
  } else {
    CHECK(st == HIERA_NOT_FOUND, "no panic hook in this build: %s", status_name(st));
    CHECK(out == NULL, "not found");
  }
}

/* hiera_lookup_key answers what hiera_lookup answers for {"key": KEY}. */
static void test_lookup_key(hiera_session *s, int panic_hook) {
  for (size_t i = 0; i < expected.count; i++) {
    const char *q = expected.cases[i].key_json;
    size_t n = strlen(q);
    if (n < 2 || q[0] != '"' || q[n - 1] != '"' || memchr(q, '\\', n)) continue;
    char *req = xasprintf("{\"key\":%s}", q);
    char *want, *got = UNSET_STR;
    hiera_status want_st = lookup(s, req, &want);
    /* The key is not NUL-terminated: its closing quote follows it. */
    hiera_status st = hiera_lookup_key(s, q + 1, n - 2, &got);
    CHECK(st == want_st, "lookup_key %s: %s, hiera_lookup %s", q, status_name(st), status_name(want_st));
    CHECK(got != UNSET_STR, "lookup_key %s: result_json written", q);
    CHECK((want == NULL && got == NULL) || (want && got && strcmp(want, got) == 0),
          "lookup_key %s: got %s, hiera_lookup %s", q, got == UNSET_STR ? "(unset)" : got, want);
    if (got != UNSET_STR) hiera_string_free(got);
    hiera_string_free(want);
    free(req);
  }
  char *out = UNSET_STR;
  CHECK(hiera_lookup_key(s, "ntp::service_nameXYZ", 17, &out) == HIERA_OK, "lookup_key by length");
  CHECK(out != UNSET_STR && out && strcmp(out, "\"ntpsec\"") == 0, "%s", out);
  hiera_string_free(out);
  out = UNSET_STR;
  CHECK(hiera_lookup_key(s, "", 0, &out) == HIERA_NOT_FOUND, "lookup_key of the empty key");
  CHECK(out == NULL, "NULL when not found");
  out = UNSET_STR;
  CHECK(hiera_lookup_key(s, "motd\xff", 5, &out) == HIERA_INVALID_ARGUMENT, "lookup_key, not UTF-8");
  CHECK(out != UNSET_STR && contains(out, "key is not valid UTF-8 (invalid byte at offset 4)"), "%s",
        out == UNSET_STR ? "(unset)" : out);
  if (out != UNSET_STR) hiera_string_free(out);
  out = UNSET_STR;
  CHECK(hiera_lookup_key(NULL, "motd", 4, &out) == HIERA_NULL_ARGUMENT, "lookup_key s");
  CHECK(hiera_lookup_key(s, NULL, 4, &out) == HIERA_NULL_ARGUMENT, "lookup_key key");
  CHECK(hiera_lookup_key(s, "motd", 4, NULL) == HIERA_NULL_ARGUMENT, "lookup_key result");
  CHECK(out == UNSET_STR, "result_json not written on HIERA_NULL_ARGUMENT");
  if (panic_hook) {
    hiera_status st = hiera_lookup_key(s, "__hiera_test_panic__", 20, &out);
    CHECK(st == HIERA_PANIC, "panic hook in lookup_key: %s", status_name(st));
    CHECK(out == UNSET_STR, "result_json not written on HIERA_PANIC");
  }
}

static void test_null_arguments(const hiera *h, hiera_session *s) {
  char *opts = examples_options();
  hiera *hh = UNSET_HIERA;
  hiera_session *ss = UNSET_SESSION;
  char *out = UNSET_STR;
  CHECK(hiera_open(NULL, &hh, &out) == HIERA_NULL_ARGUMENT, "open options");
  CHECK(hiera_open(opts, NULL, &out) == HIERA_NULL_ARGUMENT, "open out");
  CHECK(hiera_open(opts, &hh, NULL) == HIERA_NULL_ARGUMENT, "open error_json");
  CHECK(hiera_open("{\"bogus\":1}", &hh, NULL) == HIERA_NULL_ARGUMENT, "NULL checked first");
  CHECK(hiera_session_new(NULL, "{}", &ss, &out) == HIERA_NULL_ARGUMENT, "session h");
  CHECK(hiera_session_new(h, NULL, &ss, &out) == HIERA_NULL_ARGUMENT, "session scope");
  CHECK(hiera_session_new(h, "{}", NULL, &out) == HIERA_NULL_ARGUMENT, "session out");
  CHECK(hiera_session_new(h, "{}", &ss, NULL) == HIERA_NULL_ARGUMENT, "session error_json");
  CHECK(hiera_lookup(NULL, "{\"key\":\"motd\"}", &out) == HIERA_NULL_ARGUMENT, "lookup s");
  CHECK(hiera_lookup(s, NULL, &out) == HIERA_NULL_ARGUMENT, "lookup request");
  CHECK(hiera_lookup(s, "{\"key\":\"motd\"}", NULL) == HIERA_NULL_ARGUMENT, "lookup result");
  CHECK(hiera_lookup_many(NULL, "[]", &out) == HIERA_NULL_ARGUMENT, "many s");
  CHECK(hiera_lookup_many(s, NULL, &out) == HIERA_NULL_ARGUMENT, "many requests");
  CHECK(hiera_lookup_many(s, "[]", NULL) == HIERA_NULL_ARGUMENT, "many results");
  CHECK(hh == UNSET_HIERA && ss == UNSET_SESSION && out == UNSET_STR,
        "no out-parameter written on HIERA_NULL_ARGUMENT");
  /* The destructors accept NULL. */
  hiera_free(NULL);
  hiera_session_free(NULL);
  hiera_string_free(NULL);
  passed++;
  free(opts);
}

/* Each input, invalid: not UTF-8, not JSON, not the right object. */
enum target { OPEN, SESSION, LOOKUP, MANY };

/* Calls `t` with `input`; stores what it wrote to its string out-parameter
   (UNSET_STR when nothing) and whether it wrote a handle. */
static hiera_status call_target(enum target t, const hiera *h, hiera_session *s, const char *input,
                                char **out, int *handle_written) {
  hiera *hh = UNSET_HIERA;
  hiera_session *ss = UNSET_SESSION;
  hiera_status st;
  *out = UNSET_STR;
  switch (t) {
    case OPEN: st = hiera_open(input, &hh, out); break;
    case SESSION: st = hiera_session_new(h, input, &ss, out); break;
    case LOOKUP: st = hiera_lookup(s, input, out); break;
    default: st = hiera_lookup_many(s, input, out); break;
  }
  *handle_written = hh != UNSET_HIERA || ss != UNSET_SESSION;
  return st;
}

static void test_invalid_inputs(const hiera *h, hiera_session *s) {
  static const char *names[] = {"hiera_open", "hiera_session_new", "hiera_lookup",
                                "hiera_lookup_many"};
  static const struct {
    enum target target;
    const char *input;
    const char *message;
  } cases[] = {
      {OPEN, "{\"environment\":\"\xff\"}", "options_json is not valid UTF-8 (invalid byte at offset 16)"},
      {OPEN, "{\"environment\":", "options_json is not valid JSON"},
      {OPEN, "", "options_json is not valid JSON"},
      {OPEN, "[]", "options_json must be a JSON object"},
      {OPEN, "{\"hiera-config\":\"x\"}", "options_json: unknown field 'hiera-config'"},
      {OPEN, "{\"strict\":\"loud\"}", "'strict' must be off, warning or error, not 'loud'"},
      {OPEN, "{\"environment\":7}", "options_json: 'environment' must be a string"},
      {OPEN, "{\"environment\":\"../x\"}", "Invalid environment name '../x'"},
      {SESSION, "{\"role\":\"w\xc3\x28\"}", "scope_json is not valid UTF-8 (invalid byte at offset 10)"},
      {SESSION, "{\"role\":}", "scope_json is not valid JSON"},
      {SESSION, "[1]", "scope_json must be a JSON object"},
      {SESSION, "null", "scope_json must be a JSON object"},
      {LOOKUP, "{\"key\":\"mo\xe2\x82td\"}", "request_json is not valid UTF-8 (invalid byte at offset 10)"},
      {LOOKUP, "\xff", "request_json is not valid UTF-8 (invalid byte at offset 0)"},
      {LOOKUP, "{\"key\":\"motd\"", "request_json is not valid JSON: expected ',' or '}', found the end of the input at byte 13"},
      {LOOKUP, "{\"key\":\"motd\"} trailing", "request_json is not valid JSON: unexpected 't' after the value at byte 15"},
      {LOOKUP, "{\"key\":\"motd\" /* no comments */}", "request_json is not valid JSON: expected ',' or '}', found '/' at byte 14"},
      {LOOKUP, "", "request_json is not valid JSON: expected a value, found the end of the input at byte 0"},
      {LOOKUP, "\"motd\"", "a request must be a JSON object"},
      {LOOKUP, "{}", "a request needs a 'key'"},
      {LOOKUP, "{\"key\":[]}", "'key' must be a string or a non-empty array of strings"},
      {LOOKUP, "{\"key\":\"motd\",\"color\":\"red\"}", "unknown request field 'color'"},
      {LOOKUP, "{\"key\":\"motd\",\"explain\":\"yes\"}", "'explain' must be a boolean"},
      {LOOKUP, "{\"key\":\"motd\",\"override\":[1]}", "'override' must be an object"},
      {MANY, "[{\"key\":\"\xc0\"}]", "requests_json is not valid UTF-8"},
      {MANY, "[{\"key\":\"motd\"}", "requests_json is not valid JSON"},
      {MANY, "{\"key\":\"motd\"}", "requests_json must be a JSON array of requests"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *name = names[cases[i].target];
    char *out;
    int handle_written;
    hiera_status st = call_target(cases[i].target, h, s, cases[i].input, &out, &handle_written);
    CHECK(st == HIERA_INVALID_ARGUMENT, "%s(%s): %s", name, cases[i].input, status_name(st));
    CHECK(!handle_written, "%s(%s): out written on failure", name, cases[i].input);
    CHECK(out != UNSET_STR && contains(out, "{\"kind\":\"invalid_argument\",\"message\":") &&
              contains(out, cases[i].message),
          "%s(%s): %s", name, cases[i].input, out == UNSET_STR ? "(unset)" : out);
    if (out != UNSET_STR) hiera_string_free(out);
  }
}

/* Error objects from real failures: kind, message, file and line. */
static void test_error_objects(void) {
  char root[] = "/tmp/libhiera-ctest-XXXXXX";
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    exit(2);
  }
  const char *config =
      "version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\n"
      "hierarchy:\n  - name: common\n    path: common.yaml\n";
  make_dir(root, "good");
  make_dir(root, "good/data");
  write_file(root, "good/hiera.yaml", config);
  write_file(root, "good/data/common.yaml",
             "ok: fine\n"
             "recursive: \"%{lookup('recursive')}\"\n"
             "bad_interp: \"%{lookup('x'}\"\n"
             "undef_var: \"x%{nosuchvar}y\"\n");
  make_dir(root, "broken");
  make_dir(root, "broken/data");
  write_file(root, "broken/hiera.yaml", config);
  write_file(root, "broken/data/common.yaml", "a: 1\nb: [1,\nc: 2\n");
  make_dir(root, "badconfig");
  write_file(root, "badconfig/hiera.yaml", "version: 6\n");

  /* Each case: a fixture and strict setting, a request, the status, and two
     pieces of the result (a %s in them stands for the fixture root). */
  static const struct {
    const char *fixture, *strict, *request;
    hiera_status status;
    const char *want1, *want2;
  } cases[] = {
      {"good", "warning", "{\"key\":\"ok\"}", HIERA_OK, "\"fine\"", ""},
      {"good", "warning", "{\"key\":\"recursive\"}", HIERA_ERROR,
       "{\"kind\":\"recursion\",\"message\":\"Lookup of key 'recursive' failed: ",
       "Recursive lookup detected in [recursive]\"}"},
      {"good", "warning", "{\"key\":\"bad_interp\"}", HIERA_ERROR, "{\"kind\":\"lookup\",\"message\":",
       "Syntax error in string: %%{lookup('x'}"},
      /* strict: warning (the default) renders an undefined variable empty, */
      {"good", "warning", "{\"key\":\"undef_var\"}", HIERA_OK, "\"xy\"", ""},
      /* strict: error makes it an error (Puppet's ArgumentError from the scope). */
      {"good", "error", "{\"key\":\"undef_var\"}", HIERA_ERROR, "{\"kind\":\"interpolation\",",
       "Undefined variable 'nosuchvar'"},
      /* An explanation of a failed lookup is attached to the error object. */
      {"good", "warning", "{\"key\":\"recursive\",\"explain\":true}", HIERA_ERROR,
       "{\"kind\":\"recursion\"", ",\"explain\":\""},
      /* A data file that is not YAML: kind parse, with file and line. */
      {"broken", "warning", "{\"key\":\"a\"}", HIERA_ERROR,
       "{\"kind\":\"parse\",\"message\":\"Lookup of key 'lookup_options' failed: Unable to parse (",
       ",\"file\":\"%s/broken/data/common.yaml\",\"line\":"},
      /* An invalid hiera.yaml: kind config, with the file. */
      {"badconfig", "warning", "{\"key\":\"a\"}", HIERA_ERROR,
       "{\"kind\":\"config\",\"message\":\"This runtime does not support hiera.yaml version 6",
       "\"file\":\"%s/badconfig/hiera.yaml\"}"},
  };
  char *out;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *opts = xasprintf("{\"hiera_config\":\"%s/%s/hiera.yaml\",\"strict\":\"%s\"}", root,
                           cases[i].fixture, cases[i].strict);
    hiera *h = open_ok(opts);
    hiera_session *s = session_ok(h, "{}");
    char *want1 = xasprintf(cases[i].want1, root), *want2 = xasprintf(cases[i].want2, root);
    hiera_status st = lookup(s, cases[i].request, &out);
    CHECK(st == cases[i].status, "%s %s: %s", cases[i].fixture, cases[i].request, status_name(st));
    CHECK(contains(out, want1) && contains(out, want2), "%s %s: %s\nwant %s and %s",
          cases[i].fixture, cases[i].request, out, want1, want2);
    hiera_string_free(out);
    /* The same answer, as an entry of hiera_lookup_many; the call is OK. */
    char *many = xasprintf("[%s]", cases[i].request);
    out = UNSET_STR;
    st = hiera_lookup_many(s, many, &out);
    CHECK(st == HIERA_OK && out != UNSET_STR && contains(out, want1), "many %s: %s", many,
          out == UNSET_STR ? "(unset)" : out);
    if (out != UNSET_STR) hiera_string_free(out);
    free(many);
    free(want1);
    free(want2);
    hiera_session_free(s);
    hiera_free(h);
    free(opts);
  }

  /* Relative paths are relative to the working directory. */
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd) || chdir(root) != 0) {
    perror("chdir");
    exit(2);
  }
  hiera *h = open_ok("{\"hiera_config\":\"good/hiera.yaml\"}");
  if (chdir(cwd) != 0) {
    perror("chdir");
    exit(2);
  }
  hiera_session *s = session_ok(h, "{}");
  CHECK(lookup(s, "{\"key\":\"ok\"}", &out) == HIERA_OK, "relative path");
  hiera_string_free(out);
  hiera_session_free(s);
  hiera_free(h);
  remove_tree(root);
}

/* The explain rule: OK and NOT_FOUND give the --batch response object. */
static void test_explain(hiera_session *s) {
  char *out;
  CHECK(lookup(s, "{\"key\":\"ntp::service_name\",\"explain\":true}", &out) == HIERA_OK, "ok");
  CHECK(out && strncmp(out, "{\"value\":\"ntpsec\",\"explain\":\"", 28) == 0, "%s", out);
  CHECK(contains(out, "ntp::service_name"), "%s", out);
  hiera_string_free(out);
  CHECK(lookup(s, "{\"key\":\"no::such::key\",\"explain\":true}", &out) == HIERA_NOT_FOUND, "nf");
  CHECK(out && strncmp(out, "{\"not_found\":true,\"explain\":\"", 29) == 0, "%s", out);
  hiera_string_free(out);
  CHECK(lookup(s, "{\"key\":\"no::such::key\",\"explain\":false}", &out) == HIERA_NOT_FOUND, "f");
  CHECK(out == NULL, "no explanation asked for: NULL");
}

/* The expected answers as the array hiera_lookup_many returns. */
static char *expected_many(void) {
  size_t cap = 64;
  for (size_t i = 0; i < expected.count; i++)
    cap += 32 + (expected.cases[i].value ? strlen(expected.cases[i].value) : 0);
  char *out = (char *)malloc(cap);
  if (!out) exit(2);
  strcpy(out, "[");
  for (size_t i = 0; i < expected.count; i++) {
    if (i) strcat(out, ",");
    if (expected.cases[i].value) {
      strcat(out, "{\"value\":");
      strcat(out, expected.cases[i].value);
      strcat(out, "}");
    } else {
      strcat(out, "{\"not_found\":true}");
    }
  }
  strcat(out, "]");
  return out;
}

static char *all_requests(void) {
  size_t cap = 16;
  for (size_t i = 0; i < expected.count; i++) cap += 16 + strlen(expected.cases[i].key_json);
  char *out = (char *)malloc(cap);
  if (!out) exit(2);
  strcpy(out, "[");
  for (size_t i = 0; i < expected.count; i++) {
    if (i) strcat(out, ",");
    strcat(out, "{\"key\":");
    strcat(out, expected.cases[i].key_json);
    strcat(out, "}");
  }
  strcat(out, "]");
  return out;
}

static void test_lookup_many(hiera_session *s) {
  char *requests = all_requests(), *want = expected_many();
  char *out = UNSET_STR;
  CHECK(hiera_lookup_many(s, requests, &out) == HIERA_OK, "many");
  CHECK(out != UNSET_STR && strcmp(out, want) == 0, "got %s\nwant %s", out, want);
  hiera_string_free(out);
  free(requests);
  free(want);

  out = UNSET_STR;
  CHECK(hiera_lookup_many(s, " [ ] ", &out) == HIERA_OK, "empty");
  CHECK(out != UNSET_STR && strcmp(out, "[]") == 0, "%s", out);
  hiera_string_free(out);

  /* Invalid entries become error entries; the others are answered. */
  out = UNSET_STR;
  CHECK(hiera_lookup_many(s,
                          "[{\"key\":\"ntp::service_name\"},{\"key\":\"motd\",\"colour\":1},7,"
                          "{\"key\":\"nope\"},{\"key\":\"motd\",\"merge\":\"bogus\"},"
                          "{\"key\":\"profile::web::settings.listen.1\",\"explain\":true}]",
                          &out) == HIERA_OK,
        "mixed");
  const char *prefix =
      "[{\"value\":\"ntpsec\"},"
      "{\"error\":{\"kind\":\"invalid_argument\",\"message\":\"unknown request field 'colour'\"}},"
      "{\"error\":{\"kind\":\"invalid_argument\",\"message\":\"a request must be a JSON object\"}},"
      "{\"not_found\":true},"
      "{\"error\":{\"kind\":\"invalid_argument\",\"message\":\"";
  CHECK(out != UNSET_STR && strncmp(out, prefix, strlen(prefix)) == 0 &&
            contains(out, "}},{\"value\":443,\"explain\":\""),
        "%s", out);
  if (out != UNSET_STR) hiera_string_free(out);
}

/* A session stays valid after its hiera is freed. */
static void test_lifetimes(void) {
  char *opts = examples_options();
  hiera *h = open_ok(opts);
  hiera_session *s = session_ok(h, expected.scope);
  hiera_free(h);
  char *out;
  CHECK(lookup(s, "{\"key\":\"motd\"}", &out) == HIERA_OK, "session outlives hiera");
  hiera_string_free(out);
  hiera_session_free(s);
  free(opts);
}

/* Overlay sessions and hiera_lookup_keys: a class's variables over the
   node's, the parent's caches shared, the overlay outliving its parent. */
static void test_overlay(void) {
  char dir[] = "/tmp/libhiera-c-overlay-XXXXXX";
  if (!mkdtemp(dir)) exit(2);
  write_file(dir, "hiera.yaml",
             "version: 5\nhierarchy:\n  - name: mod\n    path: \"mod/%{module_name}.yaml\"\n"
             "  - name: common\n    path: common.yaml\n");
  make_dir(dir, "data");
  make_dir(dir, "data/mod");
  write_file(dir, "data/mod/ntp.yaml", "ntp::servers: [ntp.example.com]\n");
  write_file(dir, "data/common.yaml",
             "ntp::servers: [pool]\nntp::greeting: \"%{local} on %{facts.host}\"\nntp::host: \"%{facts.host}\"\n");
  char *opts = xasprintf("{\"hiera_config\":\"%s/hiera.yaml\"}", dir);
  hiera *h = open_ok(opts);
  hiera_session *root = session_ok(h, "{\"facts\":{\"host\":\"web01\"},\"module_name\":\"\",\"local\":\"top\"}");
  char *out = NULL;
  CHECK(lookup(root, "{\"key\":\"ntp::greeting\"}", &out) == HIERA_OK && strcmp(out, "\"top on web01\"") == 0, "root: %s", out);
  hiera_string_free(out);

  hiera_session *ov = UNSET_SESSION;
  char *err = UNSET_STR;
  hiera_status st = hiera_session_overlay(root, "{\"module_name\":\"ntp\",\"local\":\"in ntp\"}", "{}", &ov, &err);
  CHECK(st == HIERA_OK && err == UNSET_STR, "hiera_session_overlay = %s", status_name(st));
  if (st != HIERA_OK) exit(1);
  out = UNSET_STR;
  st = hiera_lookup_keys(ov, "[\"ntp::servers\",\"ntp::nope\",\"ntp::greeting\",\"ntp::host\"]", "{}", &out);
  CHECK(st == HIERA_OK && out != UNSET_STR &&
            strcmp(out, "[{\"value\":[\"ntp.example.com\"]},{\"not_found\":true},{\"value\":\"in ntp on web01\"},"
                        "{\"value\":\"web01\"}]") == 0,
        "hiera_lookup_keys: %s %s", status_name(st), out);
  if (out != UNSET_STR) hiera_string_free(out);
  /* The parent's answers are its own still. */
  CHECK(lookup(root, "{\"key\":\"ntp::servers\"}", &out) == HIERA_OK && strcmp(out, "[\"pool\"]") == 0, "root after: %s", out);
  hiera_string_free(out);
  /* The first failure ends the answers. */
  out = UNSET_STR;
  st = hiera_lookup_keys(ov, "[\"ntp::host\",\"bad'key\",\"ntp::servers\"]", "{}", &out);
  CHECK(st == HIERA_OK && out != UNSET_STR && contains(out, "[{\"value\":\"web01\"},{\"error\":{\"kind\":") &&
            !contains(out, "ntp.example.com"),
        "stops at the error: %s", out);
  if (out != UNSET_STR) hiera_string_free(out);
  /* Bad arguments. */
  hiera_session *bad = UNSET_SESSION;
  CHECK(hiera_session_overlay(NULL, "{}", "{}", &bad, &err) == HIERA_NULL_ARGUMENT, "overlay parent NULL");
  CHECK(hiera_session_overlay(root, NULL, "{}", &bad, &err) == HIERA_NULL_ARGUMENT, "overlay vars NULL");
  CHECK(hiera_session_overlay(root, "{}", NULL, &bad, &err) == HIERA_NULL_ARGUMENT, "overlay options NULL");
  CHECK(hiera_session_overlay(root, "{}", "{}", NULL, &err) == HIERA_NULL_ARGUMENT, "overlay out NULL");
  CHECK(hiera_session_overlay(root, "{}", "{}", &bad, NULL) == HIERA_NULL_ARGUMENT, "overlay error NULL");
  st = hiera_session_overlay(root, "[1]", "{}", &bad, &err);
  CHECK(st == HIERA_INVALID_ARGUMENT && bad == UNSET_SESSION && err != UNSET_STR && contains(err, "vars_json must be a JSON object"),
        "overlay vars not an object: %s %s", status_name(st), err != UNSET_STR ? err : "");
  if (err != UNSET_STR) hiera_string_free(err);
  err = UNSET_STR;
  st = hiera_session_overlay(root, "{}", "{\"plan\":true}", &bad, &err);
  CHECK(st == HIERA_INVALID_ARGUMENT && bad == UNSET_SESSION && err != UNSET_STR && contains(err, "'plan' is the parent's"),
        "overlay with plan: %s", status_name(st));
  if (err != UNSET_STR) hiera_string_free(err);
  out = UNSET_STR;
  CHECK(hiera_lookup_keys(NULL, "[]", "{}", &out) == HIERA_NULL_ARGUMENT && out == UNSET_STR, "keys s NULL");
  CHECK(hiera_lookup_keys(ov, "[]", NULL, &out) == HIERA_NULL_ARGUMENT && out == UNSET_STR, "keys options NULL");
  CHECK(hiera_lookup_keys(ov, NULL, "{}", &out) == HIERA_NULL_ARGUMENT && out == UNSET_STR, "keys NULL");
  CHECK(hiera_lookup_keys(ov, "[]", "{}", NULL) == HIERA_NULL_ARGUMENT, "keys out NULL");
  st = hiera_lookup_keys(ov, "[\"a\",1]", "{}", &out);
  CHECK(st == HIERA_INVALID_ARGUMENT && out != UNSET_STR && contains(out, "keys_json must be a JSON array of strings"),
        "keys not strings: %s", status_name(st));
  if (out != UNSET_STR) hiera_string_free(out);
  out = UNSET_STR;
  st = hiera_lookup_keys(ov, "[\"ntp::greeting\"]", "{\"local_variables\":[\"local\"]}", &out);
  CHECK(st == HIERA_OK && out != UNSET_STR && contains(out, "local_variables are asked of the host"),
        "local variables need a host: %s", out);
  if (out != UNSET_STR) hiera_string_free(out);
  /* The overlay outlives its parent and its hiera. */
  hiera_session_free(root);
  hiera_free(h);
  CHECK(lookup(ov, "{\"key\":\"ntp::greeting\"}", &out) == HIERA_OK && strcmp(out, "\"in ntp on web01\"") == 0,
        "overlay after its parent: %s", out);
  hiera_string_free(out);
  hiera_session_free(ov);
  free(opts);
  remove_tree(dir);
}

/* ---- host_scope: a session's variables read from the host by name ----------- */

typedef struct top_state {
  int facts, nosuch, other;
} top_state;

static void top_call(void *user_data, const char *call_json, hiera_answer *answer) {
  top_state *st = (top_state *)user_data;
  if (!contains(call_json, "\"kind\":\"variable\"") || !contains(call_json, "\"scope\":\"top\"")) {
    st->other++;
    return;
  }
  if (contains(call_json, "\"key\":\"facts\"")) {
    st->facts++;
    hiera_answer_value(answer, "{\"os\":{\"family\":\"Debian\"},\"list\":[\"a\",\"b\"]}");
  } else if (contains(call_json, "\"key\":\"nosuch\"")) {
    st->nosuch++; /* nothing: undefined */
  } else {
    st->other++;
  }
}

static void test_host_scope(void) {
  char dir[] = "/tmp/libhiera-c-hostscope-XXXXXX";
  if (!mkdtemp(dir)) exit(2);
  write_file(dir, "hiera.yaml",
             "version: 5\nhierarchy:\n  - name: family\n    path: \"%{facts.os.family}.yaml\"\n  - name: common\n    path: common.yaml\n");
  make_dir(dir, "data");
  write_file(dir, "data/Debian.yaml", "family: \"debian %{facts.list.1}\"\n");
  write_file(dir, "data/common.yaml", "undef: \"[%{nosuch}]\"\nfamily: common\n");
  top_state st;
  memset(&st, 0, sizeof st);
  hiera_host host = {&st, top_call, NULL, NULL};
  char *opts = xasprintf("{\"hiera_config\":\"%s/hiera.yaml\",\"host_scope\":true}", dir);
  hiera *h = UNSET_HIERA;
  char *err = UNSET_STR;
  hiera_status s = hiera_open_with_host(opts, &host, &h, &err);
  CHECK(s == HIERA_OK, "hiera_open_with_host(host_scope) = %s", status_name(s));
  if (s != HIERA_OK) exit(1);
  hiera_session *sess = UNSET_SESSION;
  s = hiera_session_new(h, "{}", &sess, &err);
  CHECK(s == HIERA_OK, "hiera_session_new({}) = %s", status_name(s));
  if (s != HIERA_OK) exit(1);
  for (int round = 0; round < 2; round++) {
    char *out = NULL;
    s = lookup(sess, "{\"key\":\"family\"}", &out);
    CHECK(s == HIERA_OK && out && strcmp(out, "\"debian b\"") == 0, "host_scope: family: %s %s", status_name(s), out ? out : "(null)");
    hiera_string_free(out);
    out = NULL;
    s = lookup(sess, "{\"key\":\"undef\"}", &out);
    CHECK(s == HIERA_OK && out && strcmp(out, "\"[]\"") == 0, "host_scope: undef: %s %s", status_name(s), out ? out : "(null)");
    hiera_string_free(out);
  }
  CHECK(st.facts == 1 && st.nosuch == 1 && st.other == 0, "host_scope: each name asked once per session (facts %d, nosuch %d, other %d)",
        st.facts, st.nosuch, st.other);
  /* A second session asks again. */
  hiera_session *two = UNSET_SESSION;
  CHECK(hiera_session_new(h, "{\"facts\":{\"os\":{\"family\":\"RedHat\"}}}", &two, &err) == HIERA_OK, "a second session");
  char *out = NULL;
  s = lookup(two, "{\"key\":\"family\"}", &out);
  CHECK(s == HIERA_OK && out && strcmp(out, "\"common\"") == 0, "host_scope: a session's own variables first: %s", out ? out : "(null)");
  hiera_string_free(out);
  CHECK(st.facts == 1, "a session's own facts are not asked (%d)", st.facts);
  hiera *h2 = UNSET_HIERA;
  CHECK(hiera_open_with_host("{\"host_scope\":1}", &host, &h2, &err) == HIERA_INVALID_ARGUMENT && h2 == UNSET_HIERA,
        "host_scope must be a boolean");
  if (err != UNSET_STR) hiera_string_free(err);
  hiera_session_free(two);
  hiera_session_free(sess);
  hiera_free(h);
  free(opts);
  remove_tree(dir);
}

/* ---- host functions ---------------------------------------------------------- */

typedef struct host_state {
  hiera_session *session; /* for lookups made from inside a call */
  int calls, warnings, released, nested, variables, indexed;
  char last_warning[512];
} host_state;

/* A custom lookup_key function `my::fn` and data_hash function `my::hash`. */
static void host_call(void *user_data, const char *call_json, hiera_answer *answer) {
  host_state *st = (host_state *)user_data;
  st->calls++;
  if (contains(call_json, "\"kind\":\"variable\"")) {
    /* A qualified variable (host_variables: true): my::var only. */
    st->variables++;
    if (contains(call_json, "\"key\":\"my::var\"")) hiera_answer_value(answer, "\"from host\"");
    if (contains(call_json, "\"key\":\"lv\"")) hiera_answer_value(answer, "\"local value\"");
    /* A plain variable of a known_variables lookup: numbered by the session. */
    if (contains(call_json, "\"key\":\"kv\"")) hiera_answer_value(answer, "\"scope value\"");
    if (contains(call_json, "\"key\":\"kv\",\"index\":0")) st->indexed++;
    if (contains(call_json, "\"key\":\"my::var\"")) {
      /* A variable call has no lookup context. */
      char *out = NULL;
      CHECK(hiera_answer_interpolate(answer, "\"x\"", &out) == HIERA_INVALID_ARGUMENT && contains(out, "no lookup context"),
            "interpolate in a variable call: %s", out ? out : "(null)");
      hiera_string_free(out);
      CHECK(hiera_answer_explain(answer, "x") == HIERA_INVALID_ARGUMENT, "explain in a variable call");
    }
    return;
  }
  if (contains(call_json, "\"kind\":\"data_hash\"")) {
    CHECK(contains(call_json, "\"function\":\"my::hash\"") && contains(call_json, "common.yaml"), "data_hash call: %s", call_json ? call_json : "(null)");
    hiera_answer_value(answer, "{\"from_hash\":\"v %{facts.x}\",\"alias\":\"%{alias('from_fn')}\"}");
    return;
  }
  CHECK(contains(call_json, "\"kind\":\"lookup_key\"") && contains(call_json, "\"options\":{\"o\":1}"), "lookup_key call: %s", call_json ? call_json : "(null)");
  if (contains(call_json, "\"key\":\"from_fn\"")) {
    hiera_answer_value(answer, "[1,2]");
  } else if (contains(call_json, "\"key\":\"nested\"")) {
    /* A function that looks up again, through the same session. */
    char *out = NULL;
    st->nested++;
    hiera_status s = hiera_lookup(st->session, "{\"key\":\"from_hash\"}", &out);
    CHECK(s == HIERA_OK && out && strcmp(out, "\"v 5\"") == 0, "nested lookup inside a call: %s %s", status_name(s), out ? out : "(null)");
    hiera_answer_value(answer, out ? out : "null");
    hiera_string_free(out);
  } else if (contains(call_json, "\"key\":\"interpolated\"")) {
    /* context.interpolate and context.explain through the answer. */
    char *out = NULL;
    hiera_status s = hiera_answer_interpolate(answer, "{\"a\":[\"x=%{facts.x}\",\"%{lookup('from_fn')}\"]}", &out);
    CHECK(s == HIERA_OK && out && strcmp(out, "{\"a\":[\"x=5\",\"[1, 2]\"]}") == 0, "hiera_answer_interpolate: %s %s", status_name(s), out ? out : "(null)");
    CHECK(hiera_answer_explain(answer, "asked the vault") == HIERA_OK, "hiera_answer_explain");
    hiera_answer_value(answer, out ? out : "null");
    hiera_string_free(out);
    out = NULL;
    s = hiera_answer_interpolate(answer, "\"%{bad('x')}\"", &out);
    CHECK(s == HIERA_ERROR && contains(out, "\"kind\":\"interpolation\""), "a failed interpolation: %s %s", status_name(s), out ? out : "(null)");
    hiera_string_free(out);
    out = NULL;
    s = hiera_answer_interpolate(answer, "{nope", &out);
    CHECK(s == HIERA_INVALID_ARGUMENT && contains(out, "value_json is not valid JSON"), "interpolate bad JSON: %s", status_name(s));
    hiera_string_free(out);
    CHECK(hiera_answer_interpolate(answer, "1", NULL) == HIERA_NULL_ARGUMENT, "hiera_answer_interpolate(.., NULL)");
    CHECK(hiera_answer_explain(NULL, "x") == HIERA_NULL_ARGUMENT, "hiera_answer_explain(NULL)");
  } else if (contains(call_json, "\"key\":\"failing\"")) {
    CHECK(hiera_answer_error(answer, "the vault is sealed") == HIERA_OK, "hiera_answer_error");
  } else if (contains(call_json, "\"key\":\"bad_json\"")) {
    CHECK(hiera_answer_value(answer, "{nope") == HIERA_INVALID_ARGUMENT, "hiera_answer_value refuses bad JSON");
  } else {
    CHECK(hiera_answer_value(NULL, "1") == HIERA_NULL_ARGUMENT, "hiera_answer_value(NULL)");
    CHECK(hiera_answer_value(answer, NULL) == HIERA_NULL_ARGUMENT, "hiera_answer_value(.., NULL)");
    /* nothing set: not found */
  }
}

static void host_warn(void *user_data, const char *warning_json) {
  host_state *st = (host_state *)user_data;
  st->warnings++;
  snprintf(st->last_warning, sizeof st->last_warning, "%s", warning_json);
}

static void host_release(void *user_data) { ((host_state *)user_data)->released++; }

static void test_host(void) {
  char dir[] = "/tmp/libhiera-c-host-XXXXXX";
  if (!mkdtemp(dir)) exit(2);
  write_file(dir, "hiera.yaml",
             "version: 5\nhierarchy:\n  - name: fn\n    lookup_key: my::fn\n    options: {o: 1}\n"
             "  - name: hash\n    data_hash: my::hash\n    path: common.yaml\n  - name: yaml\n    path: plain.yaml\n");
  make_dir(dir, "data");
  write_file(dir, "data/common.yaml", "");
  write_file(dir, "data/plain.yaml", "undef: \"%{nosuch}\"\nqualified: \"%{my::var}|%{my::other}\"\nlocal: \"v=%{lv}\"\nknown: \"k=%{kv}\"\n");
  host_state st;
  memset(&st, 0, sizeof st);
  hiera_host host = {&st, host_call, host_warn, host_release};
  char *opts = xasprintf("{\"hiera_config\":\"%s/hiera.yaml\",\"host_variables\":true}", dir);
  hiera *h = UNSET_HIERA;
  char *err = UNSET_STR;
  CHECK(hiera_open_with_host(opts, NULL, &h, &err) == HIERA_NULL_ARGUMENT, "hiera_open_with_host(host NULL)");
  hiera_status s = hiera_open_with_host(opts, &host, &h, &err);
  CHECK(s == HIERA_OK && err == UNSET_STR, "hiera_open_with_host = %s", status_name(s));
  if (s != HIERA_OK) exit(1);
  hiera_session *sess = UNSET_SESSION;
  s = hiera_session_new_with(h, "{\"facts\":{\"x\":5},\"kv\":\"top value\"}", "{\"plan\":false}", &sess, &err);
  CHECK(s == HIERA_OK, "hiera_session_new_with = %s", status_name(s));
  if (s != HIERA_OK) exit(1);
  st.session = sess;
  hiera_session *bad = UNSET_SESSION;
  CHECK(hiera_session_new_with(h, "{}", "{\"plann\":true}", &bad, &err) == HIERA_INVALID_ARGUMENT && bad == UNSET_SESSION,
        "hiera_session_new_with refuses an unknown option");
  if (err != UNSET_STR) hiera_string_free(err);

  struct { const char *req; hiera_status want; const char *value; } cases[] = {
      {"{\"key\":\"from_fn\"}", HIERA_OK, "[1,2]"},
      {"{\"key\":\"from_hash\"}", HIERA_OK, "\"v 5\""},     /* a data_hash value is interpolated */
      {"{\"key\":\"alias\"}", HIERA_OK, "[1,2]"},             /* and may look up again */
      {"{\"key\":\"nested\"}", HIERA_OK, "\"v 5\""},        /* a call that looks up from inside */
      {"{\"key\":\"missing\"}", HIERA_NOT_FOUND, NULL},
      {"{\"key\":\"failing\"}", HIERA_ERROR, "the vault is sealed"},
      {"{\"key\":\"interpolated\"}", HIERA_OK, "{\"a\":[\"x=5\",\"[1, 2]\"]}"}, /* hiera_answer_interpolate */
      {"{\"key\":\"interpolated\",\"explain\":true}", HIERA_OK, "asked the vault"}, /* hiera_answer_explain */
      {"{\"key\":\"bad_json\"}", HIERA_ERROR, "value_json is not valid JSON"},
      {"{\"key\":\"qualified\"}", HIERA_OK, "\"from host|\""}, /* host_variables */
      {"{\"key\":\"local\",\"local_variables\":[\"lv\"]}", HIERA_OK, "\"v=local value\""}, /* asked of the host */
      {"{\"key\":\"undef\"}", HIERA_OK, "\"\""},
      /* known_variables: kv is not among the 0 names checked: asked, numbered 0 */
      {"{\"key\":\"known\",\"known_variables\":0}", HIERA_OK, "\"k=scope value\""},
      /* checked, not the scope's own: the session's (the answer above was not kept) */
      {"{\"key\":\"known\",\"known_variables\":1}", HIERA_OK, "\"k=top value\""},
      {"{\"key\":\"known\",\"known_variables\":1,\"local_variables\":[\"kv\"]}", HIERA_OK, "\"k=scope value\""},
      {"{\"key\":\"known\",\"known_variables\":-1}", HIERA_INVALID_ARGUMENT, "'known_variables' must be a non-negative integer"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *out = NULL;
    s = lookup(sess, cases[i].req, &out);
    CHECK(s == cases[i].want && (cases[i].value ? contains(out, cases[i].value) : out == NULL), "host: %s: %s %s",
          cases[i].req, status_name(s), out ? out : "(null)");
    hiera_string_free(out);
  }
  CHECK(st.nested == 1, "one nested lookup from inside a call (%d)", st.nested);
  CHECK(st.variables == 5, "the host was asked for my::var, my::other, lv and kv twice (%d)", st.variables);
  CHECK(st.indexed == 1, "kv was asked once with its number (%d)", st.indexed);
  CHECK(st.warnings == 2 && contains(st.last_warning, "\"kind\":\"undefined_variables\"") &&
            contains(st.last_warning, "Undefined variable 'nosuch'"),
        "the undefined variables reached warn: %d %s", st.warnings, st.last_warning);
  hiera_free(h);
  CHECK(st.released == 0, "release waits for the sessions");
  hiera_session_free(sess);
  CHECK(st.released == 1, "release once the hiera and its sessions are gone (%d)", st.released);

  /* A host without `call`: functions are errors, as without a host. */
  hiera_host warn_only = {&st, NULL, host_warn, NULL};
  s = hiera_open_with_host(opts, &warn_only, &h, &err);
  CHECK(s == HIERA_OK, "hiera_open_with_host (warn only)");
  if (s == HIERA_OK) {
    hiera_session *s2 = session_ok(h, "{}");
    char *out = NULL;
    CHECK(lookup(s2, "{\"key\":\"from_fn\"}", &out) == HIERA_ERROR && contains(out, "Unable to find 'lookup_key' function named 'my::fn'"),
          "no call: %s", out ? out : "(null)");
    hiera_string_free(out);
    hiera_session_free(s2);
    hiera_free(h);
  }
  /* A configuration that cannot be opened releases the host at once. */
  memset(&st, 0, sizeof st);
  s = hiera_open_with_host("{\"environment\":\"../bad\"}", &host, &h, &err);
  CHECK(s == HIERA_INVALID_ARGUMENT && st.released == 1, "a failed open releases: %s %d", status_name(s), st.released);
  if (s != HIERA_OK && err != UNSET_STR) hiera_string_free(err);
  free(opts);
  remove_tree(dir);
}

/* ---- Puppet 4 data providers ------------------------------------------------ */

/* environment.conf's `environment_data_provider = function`: the host runs
 * `environment::data` (kind v4_data_hash, once per session). */
static void v4_call(void *user_data, const char *call_json, hiera_answer *answer) {
  host_state *st = (host_state *)user_data;
  st->calls++;
  CHECK(contains(call_json, "\"kind\":\"v4_data_hash\"") && contains(call_json, "\"function\":\"environment::data\"") &&
            contains(call_json, "\"layer\":\"environment\"") && contains(call_json, "\"entry\":\"Legacy function 'environment::data'\"") &&
            !contains(call_json, "\"location\""),
        "v4_data_hash call: %s", call_json ? call_json : "(null)");
  hiera_answer_value(answer, "{\"k\":\"v %{facts.x}\",\"n\":[1]}");
}

static void test_data_provider_function(void) {
  char dir[] = "/tmp/libhiera-c-v4-XXXXXX";
  if (!mkdtemp(dir)) exit(2);
  make_dir(dir, "environments");
  make_dir(dir, "environments/production");
  write_file(dir, "environments/production/environment.conf", "environment_data_provider = function\n");
  host_state st;
  memset(&st, 0, sizeof st);
  hiera_host host = {&st, v4_call, host_warn, NULL};
  char *opts = xasprintf("{\"hiera_config\":\"%s/hiera.yaml\",\"environmentpath\":\"%s/environments\"}", dir, dir);
  hiera *h = UNSET_HIERA;
  char *err = UNSET_STR;
  hiera_status s = hiera_open_with_host(opts, &host, &h, &err);
  CHECK(s == HIERA_OK, "hiera_open_with_host (v4) = %s", status_name(s));
  if (s != HIERA_OK) exit(1);
  hiera_session *sess = session_ok(h, "{\"facts\":{\"x\":5}}");
  char *out = NULL;
  s = lookup(sess, "{\"key\":\"k\"}", &out);
  CHECK(s == HIERA_OK && out && strcmp(out, "\"v 5\"") == 0, "environment::data's k: %s %s", status_name(s), out ? out : "(null)");
  hiera_string_free(out);
  s = lookup(sess, "{\"key\":\"n\"}", &out);
  CHECK(s == HIERA_OK && out && strcmp(out, "[1]") == 0, "environment::data's n: %s %s", status_name(s), out ? out : "(null)");
  hiera_string_free(out);
  CHECK(st.calls == 1, "environment::data called once per session (%d)", st.calls);
  CHECK(st.warnings >= 1 && contains(st.last_warning, "deprecat"), "a deprecation warning: %s", st.last_warning);
  hiera_session_free(sess);
  hiera_free(h);
  /* Without a call callback, and without a host: the error names the function. */
  hiera_host warn_only = {&st, NULL, host_warn, NULL};
  hiera *hs[2] = {NULL, NULL};
  CHECK(hiera_open_with_host(opts, &warn_only, &hs[0], &err) == HIERA_OK, "hiera_open_with_host (v4, warn only)");
  hs[1] = open_ok(opts);
  for (int i = 0; i < 2; i++) {
    if (!hs[i]) continue;
    hiera_session *s2 = session_ok(hs[i], "{}");
    s = lookup(s2, "{\"key\":\"k\"}", &out);
    CHECK(s == HIERA_ERROR && contains(out, "Unable to find 'v4_data_hash' function named 'environment::data'"),
          "no host for environment::data (%d): %s", i, out ? out : "(null)");
    hiera_string_free(out);
    hiera_session_free(s2);
    hiera_free(hs[i]);
  }
  free(opts);
  remove_tree(dir);
}

/* ---- threads --------------------------------------------------------------- */

typedef struct worker {
  pthread_t thread;
  int id, rounds;
  hiera *h;
  hiera_session *s;
  const char *requests, *want_many;
  int lookups, mismatches;
} worker;

static void *work(void *arg) {
  worker *w = (worker *)arg;
  for (int r = 0; r < w->rounds; r++) {
    if ((r + w->id) % 7 == 0) {
      /* The whole catalog in one call. */
      char *out = NULL;
      hiera_status st = hiera_lookup_many(w->s, w->requests, &out);
      w->lookups++;
      if (st != HIERA_OK || !out || strcmp(out, w->want_many) != 0) {
        w->mismatches++;
        fprintf(stderr, "thread %d: lookup_many: %s %s\n", w->id, status_name(st), out);
      }
      hiera_string_free(out);
      continue;
    }
    hiera_session *s = w->s;
    if ((r + w->id) % 11 == 0) {
      /* A session of its own, made from the shared hiera. */
      char *err = NULL;
      if (hiera_session_new(w->h, expected.scope, &s, &err) != HIERA_OK) {
        w->mismatches++;
        fprintf(stderr, "thread %d: session_new: %s\n", w->id, err);
        hiera_string_free(err);
        continue;
      }
    }
    for (size_t k = 0; k < expected.count; k++) {
      tu_case *c = &expected.cases[(k + (size_t)w->id + (size_t)r) % expected.count];
      char req[512];
      snprintf(req, sizeof req, "{\"key\":%s}", c->key_json);
      char *out = UNSET_STR;
      hiera_status st = hiera_lookup(s, req, &out);
      w->lookups++;
      int ok = c->value ? (st == HIERA_OK && out != UNSET_STR && out && strcmp(out, c->value) == 0)
                        : (st == HIERA_NOT_FOUND && out == NULL);
      if (!ok) {
        w->mismatches++;
        fprintf(stderr, "thread %d: %s: %s %s\n", w->id, req, status_name(st),
                out == UNSET_STR ? "(unset)" : out);
      }
      if (out != UNSET_STR) hiera_string_free(out);
    }
    if (s != w->s) hiera_session_free(s);
  }
  return NULL;
}

static int env_int(const char *name, int dflt) {
  const char *v = getenv(name);
  int n = v ? atoi(v) : 0;
  return n > 0 ? n : dflt;
}

static void test_threads(hiera *h, hiera_session *s) {
  int nthreads = env_int("HIERA_TEST_THREADS", 8);
  int rounds = env_int("HIERA_TEST_ROUNDS", 60);
  char *requests = all_requests(), *want = expected_many();
  worker *ws = (worker *)calloc((size_t)nthreads, sizeof(worker));
  if (!ws) exit(2);
  for (int i = 0; i < nthreads; i++) {
    ws[i].id = i;
    ws[i].rounds = rounds;
    ws[i].h = h;
    ws[i].s = s;
    ws[i].requests = requests;
    ws[i].want_many = want;
    if (pthread_create(&ws[i].thread, NULL, work, &ws[i]) != 0) {
      perror("pthread_create");
      exit(2);
    }
  }
  int total = 0, bad = 0, want_total = 0;
  for (int i = 0; i < nthreads; i++) {
    pthread_join(ws[i].thread, NULL);
    total += ws[i].lookups;
    bad += ws[i].mismatches;
    for (int r = 0; r < rounds; r++) want_total += (r + i) % 7 == 0 ? 1 : (int)expected.count;
  }
  CHECK(bad == 0, "%d of %d threaded lookups were wrong", bad, total);
  CHECK(total == want_total, "ran %d calls, planned %d", total, want_total);
  printf("threads: %d threads x %d rounds: %d calls on one hiera and one session, %d wrong\n",
         nthreads, rounds, total, bad);
  free(ws);
  free(requests);
  free(want);
}

int main(int argc, char **argv) {
  int panic_hook = 0;
  const char *dir = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--panic-hook") == 0) panic_hook = 1;
    else dir = argv[i];
  }
  if (!dir) {
    fprintf(stderr, "usage: test_hiera EXAMPLES_DIR [--panic-hook]\n");
    return 2;
  }
  if (!realpath(dir, examples)) {
    perror(dir);
    return 2;
  }
  if (tu_load_expected(examples, &expected) != 0) {
    fprintf(stderr, "cannot read %s/expected.json\n", examples);
    return 2;
  }

  test_versions();
  char *opts = examples_options();
  hiera *h = open_ok(opts);
  hiera_session *s = session_ok(h, expected.scope);
  test_expected_answers(s);
  test_statuses(s, panic_hook);
  test_lookup_key(s, panic_hook);
  test_null_arguments(h, s);
  test_invalid_inputs(h, s);
  test_error_objects();
  test_explain(s);
  test_lookup_many(s);
  test_lifetimes();
  test_overlay();
  test_host();
  test_host_scope();
  test_data_provider_function();
  test_threads(h, s);
  hiera_session_free(s);
  hiera_free(h);
  free(opts);
  tu_free_expected(&expected);

  printf("library %s, %s\n", hiera_version(),
         panic_hook ? "built with the test-panic hook" : "release build (no panic hook)");
  printf("test_hiera: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
