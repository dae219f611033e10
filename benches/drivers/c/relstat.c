/* LD_PRELOAD shim for benches/stat-share (an experiment, never a result):
 * statx of a path under $RELSTAT_BASE made relative to an O_PATH descriptor
 * of that directory, opened once: what `stat`s walking only the path below
 * the environment's directory would cost (the library would have to check
 * the directory once per session to keep its answers; this does not). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf) {
    static int (*real)(int, const char *, int, unsigned int, struct statx *);
    static int fd = -2;
    static const char *base;
    static size_t len;
    if (!real) real = (int (*)(int, const char *, int, unsigned int, struct statx *))dlsym(RTLD_NEXT, "statx");
    if (fd == -2) {
        base = getenv("RELSTAT_BASE");
        fd = base ? open(base, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
        len = base ? strlen(base) : 0;
    }
    if (fd >= 0 && dirfd == AT_FDCWD && !strncmp(path, base, len) && path[len] == '/')
        return real(fd, path + len + 1, flags, mask, buf);
    return real(dirfd, path, flags, mask, buf);
}
