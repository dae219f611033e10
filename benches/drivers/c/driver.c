/* The C-ABI engine of benches/compare (issue 18): the benchmark workload
 * through include/hiera.h, as a C or C++ host calls it.
 *
 *   c-driver --corpus DIR --nodes N --rounds R --results FILE --timings FILE
 *            [--mode json|key]
 *
 * Speaks the driver interface of BENCHMARKS.md ("Driver interface"):
 * - one `hiera` (hiera_open) shared by the warm compiles, one `hiera_session`
 *   (hiera_session_new, the scope of hiera::scope::scope_from_facts built as
 *   JSON text here, facts in their file's order) per node and round;
 * - `--mode json`: every request is the workload line itself, passed to
 *   hiera_lookup (a JSON request); `--mode key`: a request that is only a
 *   key (`{"key":"K"}`, what automatic parameter lookups are) goes through
 *   hiera_lookup_key, the others through hiera_lookup;
 * - first compile: a new `hiera` and session for node 0, the whole workload
 *   timed as a whole, three times, the median reported;
 * - every lookup timed with CLOCK_MONOTONIC around the one library call
 *   (and hiera_string_free of its answer);
 * - results of round 0 in the wire format: {"value":V}, {"not_found":true}
 *   or {"error":E}.
 *
 * - C_DRIVER_FILE_CHECK_INTERVAL=S in the environment: hiera_open's
 *   file_check_interval (unset: the default, every session checks each file).
 *
 * Bad input (a missing file, a request line that is not an object) ends
 * the driver with a message naming it and exit status 2. */
#define _POSIX_C_SOURCE 200809L
#include "hiera.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FIRST_COMPILES 3

static void die(const char *what, const char *detail) {
    fprintf(stderr, "c-driver: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) die("out of memory", NULL);
    return p;
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) die(path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) die("out of memory", NULL);
            buf = nb;
        }
    }
    if (ferror(f)) die(path, "read error");
    fclose(f);
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static unsigned long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* A growable string. */
typedef struct {
    char *s;
    size_t len, cap;
} buf_t;

static void put(buf_t *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap) cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) die("out of memory", NULL);
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void puts_(buf_t *b, const char *s) { put(b, s, strlen(s)); }

/* A JSON string literal of `s` (certnames: no quotes or control characters
 * expected, but escaped anyway). */
static void put_json_string(buf_t *b, const char *s) {
    puts_(b, "\"");
    for (; *s; s++) {
        char esc[8];
        if (*s == '"' || *s == '\\') {
            esc[0] = '\\';
            esc[1] = *s;
            put(b, esc, 2);
        } else if ((unsigned char)*s < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", (unsigned char)*s);
            puts_(b, esc);
        } else {
            put(b, s, 1);
        }
    }
    puts_(b, "\"");
}

/* One request of the workload. */
typedef struct {
    char *json;      /* the line, NUL-terminated */
    const char *key; /* for a key-only request: the key (into `json`) */
    size_t key_len;
} request_t;

/* The key of a request that is exactly {"key":"K"} with no escapes in K. */
static void key_only(request_t *r) {
    static const char prefix[] = "{\"key\":\"";
    size_t n = strlen(r->json);
    r->key = NULL;
    if (n < sizeof prefix + 1 || strncmp(r->json, prefix, sizeof prefix - 1) != 0) return;
    if (strcmp(r->json + n - 2, "\"}") != 0) return;
    const char *k = r->json + sizeof prefix - 1;
    size_t klen = (size_t)(r->json + n - 2 - k);
    if (memchr(k, '"', klen) || memchr(k, '\\', klen)) return;
    r->key = k;
    r->key_len = klen;
}

typedef struct {
    char *cert;
    char *scope;
} node_t;

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *scope_json(const char *cert, const char *facts_text) {
    const char *open = strchr(facts_text, '{');
    const char *close = strrchr(facts_text, '}');
    if (!open || !close || close < open) die("facts file is not a JSON object", cert);
    buf_t b = {0};
    puts_(&b, "{");
    /* the facts' members, in their order */
    const char *m = open + 1;
    while (m < close && (*m == ' ' || *m == '\n' || *m == '\t' || *m == '\r')) m++;
    if (m < close) {
        put(&b, m, (size_t)(close - m));
        puts_(&b, ",");
    }
    puts_(&b, "\"environment\":\"production\",\"trusted\":{\"authenticated\":\"remote\",\"certname\":");
    put_json_string(&b, cert);
    puts_(&b, ",\"extensions\":{},\"hostname\":");
    const char *dot = strchr(cert, '.');
    if (dot) {
        char *host = strndup(cert, (size_t)(dot - cert));
        put_json_string(&b, host);
        free(host);
        puts_(&b, ",\"domain\":");
        put_json_string(&b, dot + 1);
    } else {
        put_json_string(&b, cert);
        puts_(&b, ",\"domain\":null");
    }
    puts_(&b, ",\"external\":{}},\"server_facts\":{},\"facts\":");
    put(&b, open, (size_t)(close - open + 1));
    puts_(&b, ",\"module_name\":\"\",\"title\":\"main\",\"name\":\"main\"}");
    return b.s;
}

static struct hiera *open_hiera(const char *dir) {
    buf_t o = {0};
    char path[4096];
    puts_(&o, "{\"hiera_config\":");
    snprintf(path, sizeof path, "%s/hiera.yaml", dir);
    put_json_string(&o, path);
    puts_(&o, ",\"environmentpath\":");
    snprintf(path, sizeof path, "%s/environments", dir);
    put_json_string(&o, path);
    puts_(&o, ",\"environment\":\"production\"");
    /* C_DRIVER_FILE_CHECK_INTERVAL: hiera_open's file_check_interval (seconds;
       unset: the default, 0, every session checks every file it uses) */
    const char *interval = getenv("C_DRIVER_FILE_CHECK_INTERVAL");
    if (interval && *interval) {
        puts_(&o, ",\"file_check_interval\":");
        puts_(&o, interval);
    }
    puts_(&o, "}");
    struct hiera *h = NULL;
    char *err = NULL;
    if (hiera_open(o.s, &h, &err) != HIERA_OK) die("hiera_open", err ? err : "failed");
    free(o.s);
    return h;
}

static struct hiera_session *new_session(struct hiera *h, const node_t *n) {
    struct hiera_session *s = NULL;
    char *err = NULL;
    if (hiera_session_new(h, n->scope, &s, &err) != HIERA_OK) die("hiera_session_new", err ? err : "failed");
    return s;
}

/* One lookup; `out` (when not NULL) gets the response line. */
static void lookup(struct hiera_session *s, const request_t *r, int key_mode, buf_t *out) {
    char *res = NULL;
    enum hiera_status st = (key_mode && r->key) ? hiera_lookup_key(s, r->key, r->key_len, &res)
                                                : hiera_lookup(s, r->json, &res);
    if (out) {
        switch (st) {
        case HIERA_OK:
            puts_(out, "{\"value\":");
            puts_(out, res);
            puts_(out, "}\n");
            break;
        case HIERA_NOT_FOUND:
            puts_(out, "{\"not_found\":true}\n");
            break;
        case HIERA_ERROR:
        case HIERA_INVALID_ARGUMENT:
            puts_(out, "{\"error\":");
            puts_(out, res ? res : "{}");
            puts_(out, "}\n");
            break;
        default:
            die("lookup", "unexpected status (null argument or panic)");
        }
    }
    hiera_string_free(res);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long rss_bytes(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * 4096;
}

int main(int argc, char **argv) {
    const char *corpus = NULL, *results = NULL, *timings = NULL, *mode = "json";
    int nodes_wanted = 50, rounds = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) die("a value is missing after", a);
        const char *v = argv[++i];
        if (!strcmp(a, "--corpus")) corpus = v;
        else if (!strcmp(a, "--nodes")) nodes_wanted = atoi(v);
        else if (!strcmp(a, "--rounds")) rounds = atoi(v);
        else if (!strcmp(a, "--results")) results = v;
        else if (!strcmp(a, "--timings")) timings = v;
        else if (!strcmp(a, "--mode")) mode = v;
        else die("unknown argument", a);
    }
    if (!corpus || !results || !timings) die("usage", "--corpus DIR --nodes N --rounds R --results FILE --timings FILE [--mode json|key]");
    int key_mode;
    if (!strcmp(mode, "json")) key_mode = 0;
    else if (!strcmp(mode, "key")) key_mode = 1;
    else die("--mode must be json or key, not", mode);

    /* the workload */
    char path[4096];
    snprintf(path, sizeof path, "%s/workload.jsonl", corpus);
    char *wl = read_file(path, NULL);
    size_t nreq = 0, cap = 1024;
    request_t *reqs = xmalloc(cap * sizeof *reqs);
    for (char *line = strtok(wl, "\n"); line; line = strtok(NULL, "\n")) {
        if (!*line) continue;
        if (*line != '{') die("a workload line is not a JSON object", line);
        if (nreq == cap) {
            cap *= 2;
            request_t *nr = realloc(reqs, cap * sizeof *reqs);
            if (!nr) die("out of memory", NULL);
            reqs = nr;
        }
        reqs[nreq].json = line;
        key_only(&reqs[nreq]);
        nreq++;
    }
    if (nreq == 0) die("the workload is empty", path);

    /* the nodes: the first N of nodes/NAME.json in byte order */
    snprintf(path, sizeof path, "%s/nodes", corpus);
    DIR *d = opendir(path);
    if (!d) die(path, strerror(errno));
    size_t nfiles = 0, fcap = 64;
    char **names = xmalloc(fcap * sizeof *names);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 5 && !strcmp(e->d_name + n - 5, ".json")) {
            if (nfiles == fcap) {
                fcap *= 2;
                char **nn = realloc(names, fcap * sizeof *names);
                if (!nn) die("out of memory", NULL);
                names = nn;
            }
            names[nfiles++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, nfiles, sizeof *names, cmp_str);
    size_t nnodes = nfiles < (size_t)nodes_wanted ? nfiles : (size_t)nodes_wanted;
    if (nnodes == 0) die("no node files in", path);
    node_t *nodes = xmalloc(nnodes * sizeof *nodes);
    for (size_t i = 0; i < nnodes; i++) {
        snprintf(path, sizeof path, "%s/nodes/%s", corpus, names[i]);
        char *facts = read_file(path, NULL);
        nodes[i].cert = strndup(names[i], strlen(names[i]) - 5);
        nodes[i].scope = scope_json(nodes[i].cert, facts);
        free(facts);
    }

    FILE *tf = fopen(timings, "w");
    if (!tf) die(timings, strerror(errno));
    long rss_start = rss_bytes();
    fprintf(tf, "{\"type\":\"meta\",\"engine\":\"C ABI (%s, libhiera %s): hiera_session_new per compile, %s\"}\n",
            mode, hiera_version(),
            key_mode ? "hiera_lookup_key for key-only requests, hiera_lookup (JSON) for the others"
                     : "hiera_lookup with the JSON request for every lookup");

    /* first compile; the last `hiera` is the one the warm rounds use */
    double samples[FIRST_COMPILES];
    struct hiera *h = NULL;
    for (int k = 0; k < FIRST_COMPILES; k++) {
        hiera_free(h);
        double t0 = now_us();
        h = open_hiera(corpus);
        struct hiera_session *s = new_session(h, &nodes[0]);
        for (size_t i = 0; i < nreq; i++) lookup(s, &reqs[i], key_mode, NULL);
        hiera_session_free(s);
        samples[k] = (now_us() - t0) / 1e6;
    }
    double sorted[FIRST_COMPILES];
    memcpy(sorted, samples, sizeof samples);
    qsort(sorted, FIRST_COMPILES, sizeof(double), cmp_double);
    fprintf(tf, "{\"type\":\"first_compile\",\"node\":\"%s\",\"seconds\":%.6f,\"samples\":[%.6f,%.6f,%.6f],\"lookups\":%zu}\n",
            nodes[0].cert, sorted[FIRST_COMPILES / 2], samples[0], samples[1], samples[2], nreq);

    /* warm rounds */
    buf_t res = {0};
    unsigned long long *ns = xmalloc(nreq * sizeof *ns);
    for (int round = 0; round < rounds; round++) {
        for (size_t n = 0; n < nnodes; n++) {
            double c0 = now_us();
            struct hiera_session *s = new_session(h, &nodes[n]);
            for (size_t i = 0; i < nreq; i++) {
                unsigned long long t0 = now_ns();
                lookup(s, &reqs[i], key_mode, NULL);
                ns[i] = now_ns() - t0;
            }
            hiera_session_free(s);
            double total = now_us() - c0;
            if (round == 0) {
                /* the results, untimed: a new session answers again */
                s = new_session(h, &nodes[n]);
                for (size_t i = 0; i < nreq; i++) lookup(s, &reqs[i], key_mode, &res);
                hiera_session_free(s);
            }
            fprintf(tf, "{\"type\":\"compile\",\"round\":%d,\"node\":\"%s\",\"total_us\":%.3f,\"lookup_us\":[", round,
                    nodes[n].cert, total);
            /* µs with three decimals, in integer arithmetic (printf's %f
               would cost more than many lookups, in an instruction count) */
            for (size_t i = 0; i < nreq; i++)
                fprintf(tf, i ? ",%llu.%03llu" : "%llu.%03llu", ns[i] / 1000, ns[i] % 1000);
            fprintf(tf, "]}\n");
        }
    }
    fprintf(tf, "{\"type\":\"run\",\"rss_start_bytes\":%ld,\"rss_after_bytes\":%ld}\n", rss_start, rss_bytes());
    hiera_free(h);
    if (fclose(tf) != 0) die(timings, strerror(errno));
    FILE *rf = fopen(results, "w");
    if (!rf) die(results, strerror(errno));
    if (res.len && fwrite(res.s, 1, res.len, rf) != res.len) die(results, "write error");
    if (fclose(rf) != 0) die(results, strerror(errno));

    free(res.s);
    free(ns);
    for (size_t i = 0; i < nnodes; i++) {
        free(nodes[i].cert);
        free(nodes[i].scope);
    }
    free(nodes);
    for (size_t i = 0; i < nfiles; i++) free(names[i]);
    free(names);
    free(reqs);
    free(wl);
    return 0;
}
