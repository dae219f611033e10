/*
 * example: look up keys in the example control repo (examples/) for node
 * web01.example.com through libhiera's C ABI, and print the answers as JSON.
 *
 * usage: example [EXAMPLES_DIR [KEY...]]
 *
 * Build: cc example.c $(pkg-config --cflags --libs hiera) -o example
 * (bindings/c/Makefile does this against a staged install).
 */
#include <hiera.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The node's variables, as Puppet builds them from its facts and certname
   (`hiera-lookup --facts facts.yaml --node web01.example.com`). */
static const char *SCOPE =
    "{\"role\":\"web\","
    "\"os\":{\"family\":\"Debian\",\"release\":{\"major\":\"12\"}},"
    "\"networking\":{\"fqdn\":\"web01.example.com\",\"domain\":\"example.com\"},"
    "\"environment\":\"production\","
    "\"trusted\":{\"authenticated\":\"remote\",\"certname\":\"web01.example.com\","
    "\"extensions\":{},\"hostname\":\"web01\",\"domain\":\"example.com\",\"external\":{}},"
    "\"facts\":{\"role\":\"web\","
    "\"os\":{\"family\":\"Debian\",\"release\":{\"major\":\"12\"}},"
    "\"networking\":{\"fqdn\":\"web01.example.com\",\"domain\":\"example.com\"}}}";

static const char *DEFAULT_KEYS[] = {
    "motd", "ntp::servers", "ntp::service_name", "profile::base::users",
    "profile::base::packages", "profile::web::vhost", "profile::web::settings",
    "profile::web::settings.listen.1", "no::such::key",
};

/* Prints an error object and frees it. */
static int fail(const char *what, hiera_status st, char *error_json) {
  fprintf(stderr, "%s failed (status %d): %s\n", what, (int)st, error_json ? error_json : "");
  hiera_string_free(error_json);
  return 2;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "examples";
  const char **keys = argc > 2 ? (const char **)argv + 2 : DEFAULT_KEYS;
  int nkeys = argc > 2 ? argc - 2 : (int)(sizeof DEFAULT_KEYS / sizeof *DEFAULT_KEYS);

  if (hiera_abi_version() != HIERA_ABI_VERSION) {
    fprintf(stderr, "libhiera ABI %u, header ABI %d\n", hiera_abi_version(), HIERA_ABI_VERSION);
    return 2;
  }

  /* Open the configuration: the same settings as the CLI's flags. */
  char options[8192];
  snprintf(options, sizeof options,
           "{\"hiera_config\":\"%s/hiera.yaml\",\"environmentpath\":\"%s/environments\","
           "\"environment\":\"production\"}",
           dir, dir);
  hiera *h = NULL;
  char *error_json = NULL;
  hiera_status st = hiera_open(options, &h, &error_json);
  if (st != HIERA_OK) return fail("hiera_open", st, error_json);

  /* One session per node: its scope and caches. */
  hiera_session *s = NULL;
  st = hiera_session_new(h, SCOPE, &s, &error_json);
  if (st != HIERA_OK) {
    hiera_free(h);
    return fail("hiera_session_new", st, error_json);
  }

  /* One key at a time. Keys here are plain names, so no JSON escaping. */
  int errors = 0;
  char request[1024];
  for (int i = 0; i < nkeys; i++) {
    snprintf(request, sizeof request, "{\"key\":\"%s\"}", keys[i]);
    char *result = NULL;
    st = hiera_lookup(s, request, &result);
    switch (st) {
      case HIERA_OK: printf("%s => %s\n", keys[i], result); break;
      case HIERA_NOT_FOUND: printf("%s => (not found)\n", keys[i]); break;
      default: printf("%s => (error %d) %s\n", keys[i], (int)st, result ? result : ""); errors++;
    }
    hiera_string_free(result);
  }

  /* All of them in one call. */
  char many[8192] = "[";
  for (int i = 0; i < nkeys; i++) {
    size_t len = strlen(many);
    snprintf(many + len, sizeof many - len, "%s{\"key\":\"%s\"}", i ? "," : "", keys[i]);
  }
  strncat(many, "]", sizeof many - strlen(many) - 1);
  char *results = NULL;
  st = hiera_lookup_many(s, many, &results);
  if (st == HIERA_OK) printf("lookup_many => %s\n", results);
  else errors++;
  hiera_string_free(results);

  hiera_session_free(s);
  hiera_free(h);
  return errors ? 2 : 0;
}
