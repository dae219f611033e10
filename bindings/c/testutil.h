/*
 * Helpers shared by the C and C++ tests: read examples/expected.json (Puppet's
 * recorded answers) with a tiny JSON scanner, and compare JSON texts.
 *
 * The scanner only finds the extent of values; it does not decode them. Two
 * JSON texts are compared after dropping the whitespace outside strings: the
 * library writes compact JSON, expected.json is pretty-printed.
 */
#ifndef HIERA_TESTUTIL_H
#define HIERA_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The whole file as a NUL-terminated string (malloc'd), or NULL. */
static inline char *tu_read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *buf = (char *)malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len < 2) {
      char *bigger = (char *)realloc(buf, cap * 2);
      if (!bigger) { free(buf); buf = NULL; break; }
      buf = bigger;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf) buf[len] = '\0';
  return buf;
}

static inline const char *tu_ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

/* The end of the JSON string starting at p (on its opening quote). */
static inline const char *tu_skip_string(const char *p) {
  for (p++; *p && *p != '"'; p++)
    if (*p == '\\' && p[1]) p++;
  return *p == '"' ? p + 1 : NULL;
}

/* The end of the JSON value starting at p (after whitespace), or NULL. */
static inline const char *tu_skip_value(const char *p) {
  p = tu_ws(p);
  if (*p == '"') return tu_skip_string(p);
  if (*p == '{' || *p == '[') {
    int depth = 0;
    while (*p) {
      if (*p == '"') {
        p = tu_skip_string(p);
        if (!p) return NULL;
        continue;
      }
      if (*p == '{' || *p == '[') depth++;
      if (*p == '}' || *p == ']') {
        if (--depth == 0) return p + 1;
      }
      p++;
    }
    return NULL;
  }
  while (*p && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' && *p != '\r' &&
         *p != '\t')
    p++;
  return p;
}

/* The value of member `name` of the object at `obj`, or NULL; *end is set to
   the end of that value. `name` is compared with the raw (escaped) key. */
static inline const char *tu_member(const char *obj, const char *name, const char **end) {
  const char *p = tu_ws(obj);
  if (*p != '{') return NULL;
  p = tu_ws(p + 1);
  size_t nlen = strlen(name);
  while (*p == '"') {
    const char *kend = tu_skip_string(p);
    if (!kend) return NULL;
    int match = (size_t)(kend - p - 2) == nlen && strncmp(p + 1, name, nlen) == 0;
    p = tu_ws(kend);
    if (*p != ':') return NULL;
    const char *v = tu_ws(p + 1);
    const char *vend = tu_skip_value(v);
    if (!vend) return NULL;
    if (match) {
      *end = vend;
      return v;
    }
    p = tu_ws(vend);
    if (*p == ',') p = tu_ws(p + 1);
  }
  return NULL;
}

/* A malloc'd copy of [begin, end) without the whitespace outside strings. */
static inline char *tu_compact(const char *begin, const char *end) {
  char *out = (char *)malloc((size_t)(end - begin) + 1), *o = out;
  if (!out) return NULL;
  int in_string = 0;
  for (const char *p = begin; p < end; p++) {
    if (in_string) {
      *o++ = *p;
      if (*p == '\\' && p + 1 < end) *o++ = *++p;
      else if (*p == '"') in_string = 0;
    } else if (*p == '"') {
      in_string = 1;
      *o++ = *p;
    } else if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') {
      *o++ = *p;
    }
  }
  *o = '\0';
  return out;
}

/* A malloc'd copy of [begin, end). */
static inline char *tu_dup(const char *begin, const char *end) {
  char *out = (char *)malloc((size_t)(end - begin) + 1);
  if (!out) return NULL;
  memcpy(out, begin, (size_t)(end - begin));
  out[end - begin] = '\0';
  return out;
}

/* One recorded query of expected.json. */
typedef struct tu_case {
  char *key_json; /* the key as a JSON string, quotes included */
  char *value;    /* Puppet's value as compact JSON, or NULL: not found */
} tu_case;

/* Puppet's recorded scope and answers. */
typedef struct tu_expected {
  char *scope; /* the scope object, compact JSON */
  tu_case *cases;
  size_t count;
} tu_expected;

/* Loads `dir`/expected.json; returns 0 on success. */
static inline int tu_load_expected(const char *dir, tu_expected *out) {
  size_t plen = strlen(dir) + sizeof "/expected.json";
  char *path = (char *)malloc(plen);
  if (!path) return -1;
  snprintf(path, plen, "%s/expected.json", dir);
  char *text = tu_read_file(path);
  free(path);
  if (!text) return -1;
  const char *end, *v, *p;
  memset(out, 0, sizeof *out);
  int rc = -1;
  if (!(v = tu_member(text, "scope", &end))) goto done;
  out->scope = tu_compact(v, end);
  if (!(v = tu_member(text, "results", &end)) || *v != '[') goto done;
  p = tu_ws(v + 1);
  while (*p == '{') {
    const char *rend = tu_skip_value(p), *kend, *vend;
    const char *k = tu_member(p, "key", &kend);
    if (!rend || !k) goto done;
    tu_case *grown = (tu_case *)realloc(out->cases, (out->count + 1) * sizeof(tu_case));
    if (!grown) goto done;
    out->cases = grown;
    tu_case *c = &out->cases[out->count++];
    c->key_json = tu_dup(k, kend);
    const char *val = tu_member(p, "value", &vend);
    c->value = val ? tu_compact(val, vend) : NULL;
    p = tu_ws(rend);
    if (*p == ',') p = tu_ws(p + 1);
  }
  rc = out->count > 0 ? 0 : -1;
done:
  free(text);
  return rc;
}

static inline void tu_free_expected(tu_expected *e) {
  for (size_t i = 0; i < e->count; i++) {
    free(e->cases[i].key_json);
    free(e->cases[i].value);
  }
  free(e->cases);
  free(e->scope);
  memset(e, 0, sizeof *e);
}

#ifdef __cplusplus
}
#endif

#endif /* HIERA_TESTUTIL_H */
