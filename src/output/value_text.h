/* SPDX-License-Identifier: MIT */
/*
 * Values that a program hands over raw and user space turns into text
 * when it prints them, as bpftrace 0.17 does:
 *
 *   buf(p, n)        u64 length, bytes     a\x09b  (printable ASCII as is)
 *   ntop([af,] a)    u64 family, 16 bytes  127.0.0.1, fe80::1
 *   macaddr(a)       6 bytes               18:C0:4D:08:2E:BB
 *   strerror(n)      u64 errno             No such file or directory
 *   cgroup_path(id)  u64 cgroup id         unified:/a/b,cpu:/a/b (every
 *                                          hierarchy at /sys/fs/cgroup
 *                                          that has a cgroup of that id;
 *                                          the type's .name: a pattern
 *                                          the hierarchies' names match)
 *   username         u64 uid               root (the number if unknown)
 */
#ifndef LANTERN_OUTPUT_VALUE_TEXT_H
#define LANTERN_OUTPUT_VALUE_TEXT_H

#include "base/strbuf.h"
#include "types/type.h"

/* Whether t is one of these kinds; out_value_text() appends the text. */
bool out_value_text_kind(const struct type *t);
void out_value_text(struct strbuf *out, const struct type *t, const void *data);

#endif
