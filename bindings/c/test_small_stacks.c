/*
 * Hostile inputs through the C ABI on a thread with 512 KiB of stack (what a
 * host may give the threads it calls libhiera from): every call ends with a
 * value or a clean error, and host callbacks run on the thread's own stack,
 * never on a segment libhiera grew.
 *
 * Usage: test_small_stacks   (makes its control repo in a temporary directory)
 */
#define _GNU_SOURCE
#include <hiera.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

#define STACK (512 * 1024)
#define DEEP 1490

static char dir[64];

static int contains(const char *s, const char *what) { return s && strstr(s, what) != NULL; }

static void write_file(const char *rel, const char *text) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  FILE *f = fopen(path, "w");
  if (!f) { perror(path); exit(2); }
  fputs(text, f);
  fclose(f);
}

/* A block-style hash nested DEEP levels under `k`, `leaf` at the bottom. */
static char *deep_hash(const char *leaf) {
  size_t cap = (size_t)DEEP * (2 * DEEP + 16) + 256, len = 0;
  char *s = malloc(cap);
  len += (size_t)sprintf(s + len, "k:\n");
  for (int i = 0; i < DEEP; i++) {
    memset(s + len, ' ', 2 * (size_t)(i + 1));
    len += 2 * (size_t)(i + 1);
    len += (size_t)sprintf(s + len, "a%d:\n", i);
  }
  memset(s + len, ' ', 2 * (size_t)(DEEP + 1));
  len += 2 * (size_t)(DEEP + 1);
  sprintf(s + len, "%s\n", leaf);
  return s;
}

static void make_repo(void) {
  strcpy(dir, "/tmp/libhiera-small-stacks-XXXXXX");
  if (!mkdtemp(dir)) { perror("mkdtemp"); exit(2); }
  char data[128];
  snprintf(data, sizeof data, "%s/data", dir);
  mkdir(data, 0755);
  write_file("hiera.yaml", "version: 5\nhierarchy:\n  - name: node\n    path: node.yaml\n  - name: common\n    path: common.yaml\n");
  /* A chain of 10,000 lookups, a nine-fold string bomb, deep data. */
  size_t cap = 10000 * 48 + 4096, len = 0;
  char *common = malloc(cap);
  for (int i = 0; i < 10000; i++) len += (size_t)sprintf(common + len, "c%d: \"%%{lookup('c%d')}\"\n", i, i + 1);
  len += (size_t)sprintf(common + len, "c10000: end\n");
  for (int i = 0; i < 9; i++) {
    len += (size_t)sprintf(common + len, "b%d: \"", i);
    for (int j = 0; j < 9; j++) len += (size_t)sprintf(common + len, "%%{lookup('b%d')}", i + 1);
    len += (size_t)sprintf(common + len, "\"\n");
  }
  sprintf(common + len, "b9: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
  char *deep_low = deep_hash("other: common");
  char *both = malloc(strlen(common) + strlen(deep_low) + 1);
  strcpy(both, common);
  strcat(both, deep_low);
  write_file("data/common.yaml", both);
  char *deep_high = deep_hash("leaf: node");
  write_file("data/node.yaml", deep_high);
  free(common);
  free(deep_low);
  free(both);
  free(deep_high);
}

/* ------------------------------------------------------------------------ */

static hiera_status lookup(hiera_session *s, const char *request, char **out) {
  *out = NULL;
  return hiera_lookup(s, request, out);
}

static void hiera5_on_a_small_stack(void) {
  char options[256], *err = NULL, *out = NULL;
  snprintf(options, sizeof options, "{\"hiera_config\": \"%s/hiera.yaml\", \"environmentpath\": \"%s/environments\"}", dir, dir);
  hiera *h = NULL;
  hiera_session *s = NULL;
  CHECK(hiera_open(options, &h, &err) == HIERA_OK, "open: %s", err);
  CHECK(hiera_session_new(h, "{}", &s, &err) == HIERA_OK, "session: %s", err);

  hiera_status st = lookup(s, "{\"key\": \"c0\"}", &out);
  CHECK(st == HIERA_ERROR && contains(out, "\"kind\":\"limit\"") && contains(out, "(limit lookup_depth = 32)") &&
            contains(out, "common.yaml"),
        "a chain of 10,000 lookups: %d %s", st, out);
  hiera_string_free(out);

  st = lookup(s, "{\"key\": \"b0\"}", &out);
  CHECK(st == HIERA_ERROR && contains(out, "\"kind\":\"limit\"") && contains(out, "string_bytes"), "a string bomb: %d %s", st, out);
  hiera_string_free(out);

  st = lookup(s, "{\"key\": \"c9980\"}", &out);
  CHECK(st == HIERA_OK && strcmp(out, "\"end\"") == 0, "a chain of 20 lookups: %d %s", st, out);
  hiera_string_free(out);

  const char *merges[] = {"\"first\"", "\"hash\"", "\"deep\"", "{\"strategy\": \"deep\", \"knockout_prefix\": \"--\"}"};
  for (size_t i = 0; i < sizeof merges / sizeof *merges; i++) {
    char req[256];
    snprintf(req, sizeof req, "{\"key\": \"k\", \"merge\": %s, \"explain\": %s}", merges[i], i % 2 ? "true" : "false");
    st = lookup(s, req, &out);
    CHECK(st == HIERA_OK && contains(out, "{\"a0\":{\"a1\":{\"a2\":"), "deep data, %s: %d %.60s", merges[i], st, out);
    hiera_string_free(out);
  }

  /* A default as deep as the wire reader allows (512 levels). */
  size_t cap = 512 * 8 + 64;
  char *req = malloc(cap);
  size_t len = (size_t)sprintf(req, "{\"key\": \"nothing\", \"default\": ");
  for (int i = 0; i < 500; i++) len += (size_t)sprintf(req + len, "[");
  len += (size_t)sprintf(req + len, "1");
  for (int i = 0; i < 500; i++) len += (size_t)sprintf(req + len, "]");
  sprintf(req + len, "}");
  st = lookup(s, req, &out);
  CHECK(st == HIERA_OK && contains(out, "[[[[1]]]]"), "a deep default: %d %.40s", st, out);
  hiera_string_free(out);
  free(req);

  hiera_session_free(s);
  hiera_free(h);
}

/* ------------------------------------------------------------------------ */

/* The thread's own stack, for the callbacks to check where they run. */
static uintptr_t stack_lo, stack_hi;
static int callbacks, off_stack;

/* Answers kN with "%{hiera('kN+1')}": each answer is interpolated again,
   so the callbacks nest inside one another until a limit stops them. */
static void chain_lookup(void *user_data, const char *key, const char *context_json, hiera3_answer *answer) {
  (void)user_data;
  (void)context_json;
  char here;
  uintptr_t at = (uintptr_t)&here;
  callbacks++;
  if (at < stack_lo || at >= stack_hi) off_stack++;
  char value[64];
  snprintf(value, sizeof value, "\"%%{hiera('k%d')}\"", atoi(key + 1) + 1);
  hiera3_answer_value(answer, value);
}

static void hiera3_callbacks_on_a_small_stack(void) {
  pthread_attr_t attr;
  void *addr;
  size_t size;
  pthread_getattr_np(pthread_self(), &attr);
  pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  stack_lo = (uintptr_t)addr;
  stack_hi = stack_lo + size;

  hiera3_host host = {NULL, chain_lookup, NULL};
  char *out = NULL, *guard = NULL;
  hiera_status st = hiera3_parse_string("\"%{hiera('k0')}\"", "{}", NULL, &host, &out, &guard);
  CHECK(st == HIERA_ERROR && contains(out, "\"kind\":\"limit\"") && contains(out, "lookup_depth"),
        "a chain of host callbacks: %d %s", st, out);
  CHECK(callbacks >= 20 && off_stack == 0, "%d callbacks, %d of them off the thread's stack", callbacks, off_stack);
  hiera_string_free(out);
  hiera_string_free(guard);
}

static void *run(void *arg) {
  (void)arg;
  hiera5_on_a_small_stack();
  hiera3_callbacks_on_a_small_stack();
  return NULL;
}

int main(void) {
  make_repo();
  /* First on the main thread (8 MiB: no stack segment is grown), which also
     makes the process-lifetime caches (compiled regexes) there, where
     valgrind can see who allocated them: it cannot unwind a grown segment. */
  hiera5_on_a_small_stack();
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, STACK);
  pthread_t t;
  if (pthread_create(&t, &attr, run, NULL) != 0) { perror("pthread_create"); return 2; }
  pthread_join(t, NULL);
  pthread_attr_destroy(&attr);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  printf("test_small_stacks: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
