// SPDX-License-Identifier: MIT
/* `lantern -l`: each provider lists its own probes (its list hook). */
#include "probes/list.h"
#include "base/util.h"
#include "probes/provider.h"
#include "sys/tracefs.h"

#include <string.h>

int list_probes(const char *pattern, bool verbose, FILE *out)
{
	struct list_query q = { .verbose = verbose };
	const struct provider *prov = NULL;
	char *copy = NULL;
	int rc = 0;

	if (pattern && *pattern) {
		/* "TYPE:A:B": TYPE names the provider, B may hold more ':' */
		char *colon;
		copy = xstrdup(pattern);
		if ((colon = strchr(copy, ':'))) {
			*colon = 0;
			prov = provider_find(providers, copy);
			q.part[0] = colon + 1;
			if ((colon = strchr(q.part[0], ':'))) {
				*colon = 0;
				q.part[1] = colon + 1;
			}
		}
		if (!prov)
			q = (struct list_query){ .whole = pattern, .verbose = verbose };
	}
	if (prov) {
		rc = prov->list && prov->list(prov, &q, out) < 0;
	} else {
		/* every provider that lists without a file to look into */
		for (int i = 0; i < PROV_COUNT_; i++)
			if (providers[i]->list && providers[i]->list(providers[i], &q, out) < 0)
				rc = 1;
	}
	free(copy);
	tracefs_release();
	return rc;
}
