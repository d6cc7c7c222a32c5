/* SPDX-License-Identifier: MIT */
/* Helper threads that start on another CPU than the caller's. */
#ifndef LANTERN_BASE_THREAD_H
#define LANTERN_BASE_THREAD_H

#include <pthread.h>
#include <stdbool.h>

/*
 * Start fn(arg) in a new thread, with a small stack, allowed on every CPU
 * the caller may use but the one it runs on (when there is another). A
 * new thread first runs on its parent's CPU and, woken, preempts it: a
 * helper that goes straight into milliseconds of kernel work (a ring
 * buffer's pages, the verifier) then holds the caller up until the
 * scheduler moves one of them, and "in parallel" is one after the other.
 * 0, or an error number as pthread_create's.
 */
int util_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
