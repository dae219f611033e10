/*
 * The C test of libhiera's Hiera 3 ABI (hiera3_*) and hiera_parse_data.
 *
 * usage: test_hiera3 CONFORMANCE_DIR
 *
 * Covers the helpers (hiera3_merge_answer, hiera3_parse_answer,
 * hiera3_parse_string, hiera3_datasources) with a host whose callbacks
 * answer lookups and scope variables through the hiera3_answer_* setters
 * (values, errors, the recursion guard handed back), the statuses, NULL for
 * each pointer argument and what is written when; hiera3_open, hiera3_lookup
 * (Hiera#lookup, and one backend's lookup with nested lookups going to the
 * host) and hiera3_free on CONFORMANCE_DIR/hiera3/array_resolution; threads
 * sharing one hiera3; and hiera_parse_data.
 *
 * Environment: HIERA_TEST_THREADS (default 4), HIERA_TEST_ROUNDS (default 50).
 * Prints "N passed, M failed" and exits non-zero on any failure.
 */
#define _GNU_SOURCE
#include "hiera.h"
#include "check.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char UNSET_STORAGE;
#define UNSET (&UNSET_STORAGE)
static int UNSET_HANDLE_STORAGE;
#define UNSET_HIERA3 ((hiera3 *)(void *)&UNSET_HANDLE_STORAGE)

static int same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }
static int contains(const char *s, const char *part) { return s && strstr(s, part) != NULL; }
static const char *show(const char *s) { return s == NULL ? "(NULL)" : s == UNSET ? "(unset)" : s; }

/* ------------------------------------------------------------------------
 * A host: lookups answered from a table, variables from another. The
 * calls are recorded; a key "boom" fails; `seen_back` (when set) is handed
 * back as the guard after every lookup. */

struct pair { const char *key, *json; };

struct table {
  const struct pair *values;
  const struct pair *scope;
  const char *seen_back;
  char log[1024];
};

static const char *find(const struct pair *p, const char *key) {
  for (; p && p->key; p++)
    if (strcmp(p->key, key) == 0) return p->json;
  return NULL;
}

static void log_call(struct table *t, const char *what) {
  size_t n = strlen(t->log);
  snprintf(t->log + n, sizeof t->log - n, "%s%s", n ? "," : "", what);
}

static void table_lookup(void *user_data, const char *key, const char *context_json, hiera3_answer *answer) {
  struct table *t = user_data;
  log_call(t, key);
  (void)context_json;
  if (t->seen_back) CHECK(hiera3_answer_seen(answer, t->seen_back) == HIERA_OK, "seen");
  if (strcmp(key, "boom") == 0) {
    CHECK(hiera3_answer_error(answer, "the host failed") == HIERA_OK, "error");
    return;
  }
  const char *v = find(t->values, key);
  if (v) CHECK(hiera3_answer_value(answer, v) == HIERA_OK, "value %s", v);
}

static void table_scope(void *user_data, const char *name, hiera3_answer *answer) {
  struct table *t = user_data;
  char what[64];
  snprintf(what, sizeof what, "$%s", name);
  log_call(t, what);
  const char *v = find(t->scope, name);
  if (v) CHECK(hiera3_answer_value(answer, v) == HIERA_OK, "scope value %s", v);
}

static const struct pair VALUES[] = {{"k", "\"K\""}, {"arr", "[\"a\",1]"}, {"lit", "\"L\""}, {NULL, NULL}};
static const struct pair SCOPE[] = {{"os", "{\"family\":\"Debian\"}"}, {"role", "\"%{hiera('k')}\""}, {NULL, NULL}};

/* ------------------------------------------------------------------------ */

static void test_merge_answer(void) {
  char *out = UNSET;
  hiera_status st = hiera3_merge_answer(
      "{\"a\":{\"x\":1},\"l\":[\"low\"]}", "{\"a\":{\"y\":2},\"l\":[\"high\",\"--low\"]}",
      "{\"__type__\":\"Hash\",\"entries\":[[{\"__type__\":\"Symbol\",\"value\":\"behavior\"},\"deeper\"],"
      "[{\"__type__\":\"Symbol\",\"value\":\"knockout_prefix\"},\"--\"]]}",
      NULL, &out);
  CHECK(st == HIERA_OK && same(out, "{\"a\":{\"x\":1,\"y\":2},\"l\":[\"high\"]}"), "deeper: %d %s", st, show(out));
  hiera_string_free(out);

  out = UNSET;
  st = hiera3_merge_answer("{\"a\":{\"x\":1}}", "{\"a\":{\"y\":2}}", "\"hash\"",
                           "{\"__type__\":\"Hash\",\"entries\":[[{\"__type__\":\"Symbol\",\"value\":\"merge_behavior\"},"
                           "{\"__type__\":\"Symbol\",\"value\":\"deeper\"}]]}",
                           &out);
  CHECK(st == HIERA_OK && same(out, "{\"a\":{\"x\":1,\"y\":2}}"), "configured deeper: %d %s", st, show(out));
  hiera_string_free(out);

  out = UNSET;
  st = hiera3_merge_answer("[1]", "{}", "null", NULL, &out);
  CHECK(st == HIERA_ERROR && contains(out, "\"message\":\"undefined method `merge' for [1]:Array\""), "%d %s", st, show(out));
  hiera_string_free(out);

  out = UNSET;
  st = hiera3_merge_answer("{", "{}", "null", NULL, &out);
  CHECK(st == HIERA_INVALID_ARGUMENT && contains(out, "\"kind\":\"invalid_argument\""), "%d %s", st, show(out));
  hiera_string_free(out);

  out = UNSET;
  st = hiera3_merge_answer("{}", "{}", "\"sideways\"", NULL, &out);
  CHECK(st == HIERA_INVALID_ARGUMENT, "%d %s", st, show(out));
  hiera_string_free(out);

  out = UNSET;
  CHECK(hiera3_merge_answer(NULL, "{}", "null", NULL, &out) == HIERA_NULL_ARGUMENT && out == UNSET, "NULL new");
  CHECK(hiera3_merge_answer("{}", NULL, "null", NULL, &out) == HIERA_NULL_ARGUMENT && out == UNSET, "NULL old");
  CHECK(hiera3_merge_answer("{}", "{}", NULL, NULL, &out) == HIERA_NULL_ARGUMENT && out == UNSET, "NULL rt");
  CHECK(hiera3_merge_answer("{}", "{}", "null", NULL, NULL) == HIERA_NULL_ARGUMENT, "NULL out");
}

static hiera_status parse(int whole, const char *data, const char *scope, const char *ctx, const hiera3_host *host,
                          char **out, char **guard) {
  *out = UNSET;
  if (guard) *guard = UNSET;
  return whole ? hiera3_parse_answer(data, scope, ctx, host, out, guard)
               : hiera3_parse_string(data, scope, ctx, host, out, guard);
}

static void test_parse(void) {
  struct table t = {VALUES, SCOPE, NULL, ""};
  hiera3_host host = {&t, table_lookup, table_scope};
  char *out, *guard;

  hiera_status st = parse(1, "[\"%{hiera('k')}/%{os.family}/%{role}\",{\"%{role}\":\"%{alias('arr')}\"},"
                             "{\"__type__\":\"Symbol\",\"value\":\"s\"},7]",
                          NULL, "{\"order_override\":\"special\"}", &host, &out, &guard);
  CHECK(st == HIERA_OK && same(out, "[\"K/Debian/K\",{\"K\":[\"a\",1]},null,7]"), "%d %s", st, show(out));
  CHECK(guard == NULL, "no guard given, none written: %s", show(guard));
  CHECK(same(t.log, "k,$os,$role,k,$role,k,arr"), "calls: %s", t.log);
  hiera_string_free(out);

  /* A callback's error fails the interpolation with its message. */
  st = parse(0, "\"x %{hiera('boom')}\"", NULL, NULL, &host, &out, NULL);
  CHECK(st == HIERA_ERROR && same(out, "{\"kind\":\"lookup\",\"message\":\"the host failed\"}"), "%d %s", st, show(out));
  hiera_string_free(out);

  /* The guard given comes back, with what literal() left on it. */
  st = parse(0, "\"%{literal('x')}\"", "{}", "{\"seen\":[\"hiera('a')\"]}", NULL, &out, &guard);
  CHECK(st == HIERA_OK && same(out, "\"x\"") && same(guard, "[\"hiera('a')\",\"literal('x')\"]"), "%d %s %s", st, show(out),
        show(guard));
  hiera_string_free(out);
  hiera_string_free(guard);

  /* The host hands its guard back: the gem's shared guard, so a literal()
   * in the nested lookup makes the second hiera('lit') a recursion. */
  struct table t2 = {VALUES, NULL, "[\"hiera('lit')\",\"literal('L')\"]", ""};
  hiera3_host host2 = {&t2, table_lookup, NULL};
  st = parse(0, "\"%{hiera('lit')}%{hiera('lit')}\"", "{}", NULL, &host2, &out, NULL);
  CHECK(st == HIERA_ERROR && contains(out, "Lookup recursion detected in [hiera('lit')]"), "%d %s", st, show(out));
  hiera_string_free(out);

  /* Without a host, hiera() finds nothing and variables come from scope_json. */
  st = parse(0, "\"<%{hiera('k')}|%{v}>\"", "{\"v\":\"V\"}", NULL, NULL, &out, NULL);
  CHECK(st == HIERA_OK && same(out, "\"<|V>\""), "%d %s", st, show(out));
  hiera_string_free(out);

  st = parse(0, "\"%{lookup('a')}\"", NULL, NULL, NULL, &out, NULL);
  CHECK(st == HIERA_ERROR && same(out, "{\"kind\":\"interpolation\",\"message\":\"Invalid interpolation method 'lookup'\"}"),
        "%d %s", st, show(out));
  hiera_string_free(out);

  st = parse(1, "[", NULL, NULL, NULL, &out, &guard);
  CHECK(st == HIERA_INVALID_ARGUMENT && contains(out, "data_json is not valid JSON") && guard == NULL, "%d %s", st,
        show(out));
  hiera_string_free(out);
  st = parse(1, "1", NULL, "{\"bogus\":1}", NULL, &out, NULL);
  CHECK(st == HIERA_INVALID_ARGUMENT, "%d %s", st, show(out));
  hiera_string_free(out);
  st = parse(1, "\"\xff\"", NULL, NULL, NULL, &out, NULL);
  CHECK(st == HIERA_INVALID_ARGUMENT && contains(out, "not valid UTF-8"), "%d %s", st, show(out));
  hiera_string_free(out);

  out = UNSET;
  CHECK(hiera3_parse_answer(NULL, NULL, NULL, NULL, &out, NULL) == HIERA_NULL_ARGUMENT && out == UNSET, "NULL data");
  CHECK(hiera3_parse_string("\"x\"", NULL, NULL, NULL, NULL, NULL) == HIERA_NULL_ARGUMENT, "NULL out");

  /* The setters check their arguments. */
  CHECK(hiera3_answer_value(NULL, "1") == HIERA_NULL_ARGUMENT, "NULL answer");
  CHECK(hiera3_answer_error(NULL, "x") == HIERA_NULL_ARGUMENT, "NULL answer");
  CHECK(hiera3_answer_seen(NULL, "[]") == HIERA_NULL_ARGUMENT, "NULL answer");
}

static void bad_value(void *user_data, const char *key, const char *context_json, hiera3_answer *answer) {
  (void)user_data, (void)key, (void)context_json;
  CHECK(hiera3_answer_value(answer, "[1") == HIERA_INVALID_ARGUMENT, "invalid JSON is refused");
  CHECK(hiera3_answer_value(answer, NULL) == HIERA_NULL_ARGUMENT, "NULL value");
}

static void test_bad_answers(void) {
  hiera3_host host = {NULL, bad_value, NULL};
  char *out;
  hiera_status st = parse(0, "\"%{hiera('x')}\"", NULL, NULL, &host, &out, NULL);
  CHECK(st == HIERA_ERROR && contains(out, "the lookup callback's answer"), "%d %s", st, show(out));
  hiera_string_free(out);
}

static void test_datasources(void) {
  struct table t = {(const struct pair[]){{"lvl", "\"from_hiera\""}, {NULL, NULL}}, NULL, NULL, ""};
  hiera3_host host = {&t, table_lookup, NULL};
  char *out = UNSET;
  hiera_status st = hiera3_datasources("[\"nodes/%{host}\",\"%{missing}\",\"/abs\",\"%{hiera('lvl')}\",\"common\"]",
                                       "{\"host\":\"web01\"}", "[\"first\"]", &host, &out);
  CHECK(st == HIERA_OK && same(out, "[\"first\",\"nodes/web01\",\"from_hiera\",\"common\"]"), "%d %s", st, show(out));
  hiera_string_free(out);
  out = UNSET;
  st = hiera3_datasources("null", NULL, NULL, NULL, &out);
  CHECK(st == HIERA_OK && same(out, "[\"common\"]"), "%d %s", st, show(out));
  hiera_string_free(out);
  out = UNSET;
  CHECK(hiera3_datasources(NULL, NULL, NULL, NULL, &out) == HIERA_NULL_ARGUMENT && out == UNSET, "NULL hierarchy");
}

/* ------------------------------------------------------------------------ */

static char *options_for(const char *dir) {
  char *s = NULL;
  if (asprintf(&s, "{\"config_file\":\"hiera.yaml\",\"cwd\":\"%s\"}", dir) < 0) exit(2);
  return s;
}

#define SCOPE3 "{\"clientcert\":\"web01.example.com\",\"role\":\"web\",\"osfamily\":\"Debian\"}"

static hiera_status lookup3(hiera3 *h, const char *req, const hiera3_host *host, char **out, char **guard) {
  *out = UNSET;
  if (guard) *guard = UNSET;
  return hiera3_lookup(h, req, host, out, guard);
}

static void test_engine(const char *dir) {
  char *opts = options_for(dir);
  hiera3 *h = UNSET_HIERA3;
  char *err = UNSET;
  hiera_status st = hiera3_open(opts, &h, &err);
  CHECK(st == HIERA_OK && h != UNSET_HIERA3 && err == UNSET, "open: %d %s", st, show(err));
  free(opts);
  if (st != HIERA_OK) return;

  char *out, *guard;
  st = lookup3(h, "{\"key\":\"classes\",\"scope\":" SCOPE3 ",\"resolution_type\":\"array\"}", NULL, &out, &guard);
  CHECK(st == HIERA_OK && out && out[0] == '[' && guard == NULL, "array: %d %s", st, show(out));
  hiera_string_free(out);

  st = lookup3(h, "{\"key\":\"nope\",\"scope\":" SCOPE3 "}", NULL, &out, NULL);
  CHECK(st == HIERA_NOT_FOUND && out == NULL, "not found: %d %s", st, show(out));

  st = lookup3(h, "{\"key\":\"nope\",\"scope\":" SCOPE3 ",\"default\":\"d-%{role}\"}", NULL, &out, NULL);
  CHECK(st == HIERA_OK && same(out, "\"d-web\""), "default: %d %s", st, show(out));
  hiera_string_free(out);

  /* The scope from the host. */
  struct table t = {NULL, (const struct pair[]){{"clientcert", "\"web01.example.com\""}, {"role", "\"web\""}, {NULL, NULL}},
                    NULL, ""};
  hiera3_host host = {&t, NULL, table_scope};
  st = lookup3(h, "{\"key\":\"classes\",\"resolution_type\":\"array\"}", &host, &out, NULL);
  CHECK(st == HIERA_OK && out && out[0] == '[' && contains(t.log, "$clientcert"), "hosted scope: %d %s %s", st, show(out),
        t.log);
  hiera_string_free(out);

  /* One backend, with the guards handed back. */
  st = lookup3(h, "{\"key\":\"nope\",\"backend\":\"YAML\",\"scope\":" SCOPE3 ",\"context\":{\"seen\":[\"x\"]},"
                  "\"config_context\":{\"seen\":[]}}",
               NULL, &out, &guard);
  CHECK(st == HIERA_NOT_FOUND && out == NULL && same(guard, "{\"seen\":[\"x\"],\"config_seen\":[]}"), "backend: %d %s %s", st,
        show(out), show(guard));
  hiera_string_free(guard);

  st = lookup3(h, "{\"key\":\"k\",\"backend\":\"xml\"}", NULL, &out, NULL);
  CHECK(st == HIERA_ERROR && contains(out, "Cannot load backend xml"), "%d %s", st, show(out));
  hiera_string_free(out);

  const char *bad[] = {"{\"key\":1}", "{\"scope\":{}}", "{\"key\":\"k\",\"bogus\":1}", "[]", "{", NULL};
  for (const char **b = bad; *b; b++) {
    st = lookup3(h, *b, NULL, &out, NULL);
    CHECK(st == HIERA_INVALID_ARGUMENT && contains(out, "invalid_argument"), "%s: %d %s", *b, st, show(out));
    hiera_string_free(out);
  }
  out = UNSET;
  CHECK(hiera3_lookup(NULL, "{\"key\":\"k\"}", NULL, &out, NULL) == HIERA_NULL_ARGUMENT && out == UNSET, "NULL h");
  CHECK(hiera3_lookup(h, NULL, NULL, &out, NULL) == HIERA_NULL_ARGUMENT && out == UNSET, "NULL request");
  CHECK(hiera3_lookup(h, "{\"key\":\"k\"}", NULL, NULL, NULL) == HIERA_NULL_ARGUMENT, "NULL out");
  hiera3_free(h);
  hiera3_free(NULL);

  /* Open errors. */
  h = UNSET_HIERA3;
  err = UNSET;
  st = hiera3_open("{\"config_file\":\"/nonexistent/hiera.yaml\"}", &h, &err);
  CHECK(st == HIERA_ERROR && h == UNSET_HIERA3 &&
            same(err, "{\"kind\":\"config\",\"message\":\"Config file /nonexistent/hiera.yaml not found\"}"),
        "%d %s", st, show(err));
  hiera_string_free(err);
  err = UNSET;
  st = hiera3_open("{\"config_file\":\"a\",\"config\":{}}", &h, &err);
  CHECK(st == HIERA_INVALID_ARGUMENT && h == UNSET_HIERA3, "%d %s", st, show(err));
  hiera_string_free(err);
  err = UNSET;
  CHECK(hiera3_open(NULL, &h, &err) == HIERA_NULL_ARGUMENT && err == UNSET, "NULL options");
  CHECK(hiera3_open("{}", NULL, &err) == HIERA_NULL_ARGUMENT && err == UNSET, "NULL out");
  CHECK(hiera3_open("{}", &h, NULL) == HIERA_NULL_ARGUMENT && h == UNSET_HIERA3, "NULL error_json");
}

/* A backend whose data interpolates hiera(): the host answers. */
static void test_backend_lookups_go_to_the_host(void) {
  char dir[] = "/tmp/libhiera-test-hiera3-XXXXXX";
  if (!mkdtemp(dir)) exit(2);
  char *data = NULL, *file = NULL, *opts = NULL;
  if (asprintf(&data, "%s/data", dir) < 0 || asprintf(&file, "%s/data/common.yaml", dir) < 0) exit(2);
  mkdir(data, 0700);
  FILE *f = fopen(file, "w");
  fputs("k: \"%{hiera('other')} %{v}\"\n", f);
  fclose(f);
  if (asprintf(&opts,
               "{\"config\":{\"__type__\":\"Hash\",\"entries\":[[{\"__type__\":\"Symbol\",\"value\":\"hierarchy\"},[\"common\"]],"
               "[{\"__type__\":\"Symbol\",\"value\":\"yaml\"},{\"__type__\":\"Hash\",\"entries\":"
               "[[{\"__type__\":\"Symbol\",\"value\":\"datadir\"},\"%s\"]]}]]}}",
               data) < 0)
    exit(2);
  hiera3 *h = NULL;
  char *err = NULL, *out = NULL;
  CHECK(hiera3_open(opts, &h, &err) == HIERA_OK, "open: %s", show(err));
  struct table t = {(const struct pair[]){{"other", "\"O\""}, {NULL, NULL}},
                    (const struct pair[]){{"v", "\"V\""}, {NULL, NULL}}, NULL, ""};
  hiera3_host host = {&t, table_lookup, table_scope};
  hiera_status st = lookup3(h, "{\"key\":\"k\",\"backend\":\"yaml\"}", &host, &out, NULL);
  CHECK(st == HIERA_OK && same(out, "\"O V\"") && same(t.log, "other,$v"), "%d %s %s", st, show(out), t.log);
  hiera_string_free(out);
  hiera3_free(h);
  remove(file);
  rmdir(data);
  rmdir(dir);
  free(data);
  free(file);
  free(opts);
}

/* ------------------------------------------------------------------------ */

struct worker {
  hiera3 *h;
  const char *want;
  int rounds;
};

static void *work(void *arg) {
  struct worker *w = arg;
  struct table t = {VALUES, SCOPE, NULL, ""};
  hiera3_host host = {&t, table_lookup, table_scope};
  for (int i = 0; i < w->rounds; i++) {
    char *out = NULL;
    hiera_status st = hiera3_lookup(w->h, "{\"key\":\"classes\",\"scope\":" SCOPE3 ",\"resolution_type\":\"array\"}", NULL,
                                    &out, NULL);
    CHECK(st == HIERA_OK && same(out, w->want), "thread lookup: %d %s", st, show(out));
    hiera_string_free(out);
    t.log[0] = '\0';
    out = NULL;
    st = hiera3_parse_string("\"%{hiera('k')}-%{os.family}\"", NULL, NULL, &host, &out, NULL);
    CHECK(st == HIERA_OK && same(out, "\"K-Debian\""), "thread parse: %d %s", st, show(out));
    hiera_string_free(out);
  }
  return NULL;
}

static void test_threads(const char *dir) {
  int threads = getenv("HIERA_TEST_THREADS") ? atoi(getenv("HIERA_TEST_THREADS")) : 4;
  int rounds = getenv("HIERA_TEST_ROUNDS") ? atoi(getenv("HIERA_TEST_ROUNDS")) : 50;
  char *opts = options_for(dir);
  hiera3 *h = NULL;
  char *err = NULL, *want = NULL;
  CHECK(hiera3_open(opts, &h, &err) == HIERA_OK, "open: %s", show(err));
  free(opts);
  CHECK(hiera3_lookup(h, "{\"key\":\"classes\",\"scope\":" SCOPE3 ",\"resolution_type\":\"array\"}", NULL, &want, NULL) ==
            HIERA_OK,
        "first lookup");
  pthread_t tid[64];
  struct worker w = {h, want, rounds};
  if (threads > 64) threads = 64;
  for (int i = 0; i < threads; i++) pthread_create(&tid[i], NULL, work, &w);
  for (int i = 0; i < threads; i++) pthread_join(tid[i], NULL);
  hiera_string_free(want);
  hiera3_free(h);
}

/* ------------------------------------------------------------------------ */

static void test_parse_data(void) {
  char *out = UNSET;
  const char yaml[] = "a: 1\n:s:\n- :sym\n";
  hiera_status st = hiera_parse_data("yaml", "/d/x.yaml", (const uint8_t *)yaml, sizeof yaml - 1, &out);
  CHECK(st == HIERA_OK && same(out, "{\"a\":1,\"s\":[{\"__type__\":\"Symbol\",\"value\":\"sym\"}]}"), "%d %s", st, show(out));
  hiera_string_free(out);
  const char nul[] = "a: \"x\0y\"\n";
  out = UNSET;
  st = hiera_parse_data("yaml", "/d/x.yaml", (const uint8_t *)nul, sizeof nul - 1, &out);
  CHECK(st == HIERA_ERROR || st == HIERA_OK, "a NUL byte is read, not a cut: %d %s", st, show(out));
  hiera_string_free(out);
  out = UNSET;
  st = hiera_parse_data("json", "/d/x.json", (const uint8_t *)"[1.5e3]", 7, &out);
  CHECK(st == HIERA_OK && same(out, "[1500.0]"), "%d %s", st, show(out));
  hiera_string_free(out);
  out = UNSET;
  st = hiera_parse_data("yaml", "/d/x.yaml", NULL, 0, &out);
  CHECK(st == HIERA_OK && same(out, "null"), "empty: %d %s", st, show(out));
  hiera_string_free(out);
  out = UNSET;
  st = hiera_parse_data("yaml", "/d/x.yaml", (const uint8_t *)"a: [\n", 5, &out);
  CHECK(st == HIERA_ERROR && contains(out, "\"kind\":\"parse\"") && contains(out, "Unable to parse (/d/x.yaml): "), "%d %s", st,
        show(out));
  hiera_string_free(out);
  out = UNSET;
  st = hiera_parse_data("hocon", "/d/x", (const uint8_t *)"", 0, &out);
  CHECK(st == HIERA_INVALID_ARGUMENT, "%d %s", st, show(out));
  hiera_string_free(out);
  out = UNSET;
  CHECK(hiera_parse_data("yaml", "/x", NULL, 3, &out) == HIERA_NULL_ARGUMENT && out == UNSET, "NULL bytes with a length");
  CHECK(hiera_parse_data(NULL, "/x", NULL, 0, &out) == HIERA_NULL_ARGUMENT && out == UNSET, "NULL format");
  CHECK(hiera_parse_data("yaml", "/x", NULL, 0, NULL) == HIERA_NULL_ARGUMENT, "NULL out");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s CONFORMANCE_DIR\n", argv[0]);
    return 2;
  }
  char *dir = NULL;
  if (asprintf(&dir, "%s/hiera3/array_resolution", argv[1]) < 0) return 2;
  test_merge_answer();
  test_parse();
  test_bad_answers();
  test_datasources();
  test_engine(dir);
  test_backend_lookups_go_to_the_host();
  test_threads(dir);
  test_parse_data();
  free(dir);
  printf("test_hiera3: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
