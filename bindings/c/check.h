/*
 * CHECK(cond, fmt, ...), shared by the C tests: counts a passed or a failed
 * check in `passed` and `failed` (under a lock, so that threads may check
 * too) and prints a failure with its place, its condition and the message.
 */
#ifndef HIERA_CHECK_H
#define HIERA_CHECK_H

#include <pthread.h>
#include <stdio.h>

static int passed, failed;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    int ok_ = (cond);                                                      \
    pthread_mutex_lock(&count_lock);                                       \
    if (ok_) {                                                             \
      passed++;                                                            \
    } else {                                                               \
      failed++;                                                            \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);      \
      fprintf(stderr, __VA_ARGS__);                                        \
      fputc('\n', stderr);                                                 \
    }                                                                      \
    pthread_mutex_unlock(&count_lock);                                     \
  } while (0)

#endif
