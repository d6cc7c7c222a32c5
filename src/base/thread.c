// SPDX-License-Identifier: MIT
#include "base/thread.h"

#include <sched.h>

/* the helpers' needs: system calls and a few frames (glibc's default is 8 MB, mapped each time) */
#ifdef __SANITIZE_ADDRESS__
#define THREAD_STACK (2 * 1024 * 1024) /* its frames are larger, and it keeps more */
#else
#define THREAD_STACK (256 * 1024)
#endif

int util_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	cpu_set_t cpus;
	int here = sched_getcpu(), rc;

	if (pthread_attr_init(&attr) != 0)
		return pthread_create(t, NULL, fn, arg);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	if (here >= 0 && sched_getaffinity(0, sizeof(cpus), &cpus) == 0 && CPU_ISSET(here, &cpus) &&
	    CPU_COUNT(&cpus) > 1) {
		CPU_CLR(here, &cpus);
		pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
	}
	rc = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return rc;
}
