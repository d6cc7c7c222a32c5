// SPDX-License-Identifier: MIT
// A seed of fuzz_elf (tests/fuzz/README.md says how it is built)
#include <sys/sdt.h>
#include <string.h>
struct point { int x, y; };
__attribute__((visibility("default"))) int lib_func(struct point *p, const char *s) { STAP_PROBE2(lib, call, p->x, s); return p->x + (int)strlen(s); }
static int hidden(int a) { return a * 3; }
__attribute__((visibility("default"))) int lib_other(int a) { return hidden(a) + 1; }
