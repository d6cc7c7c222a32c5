/* SPDX-License-Identifier: MIT */
/*
 * C++ names as people write them: "_ZN2ns3addEii" -> "ns::add(int, int)"
 * (demangle.c), for user stacks, usym(), uprobe listing and matching.
 * BPFTRACE_NO_CPP_DEMANGLE (or LANTERN_NO_CPP_DEMANGLE) set to anything
 * but 0 turns it off, as in bpftrace.
 */
#ifndef LANTERN_SYM_DEMANGLE_H
#define LANTERN_SYM_DEMANGLE_H

/* The demangled name of a C++ symbol, malloc'ed; NULL for other names or when off. */
char *sym_demangle(const char *name);
/* Names stay mangled from now on (a script's cpp_demangle = false). */
void sym_demangle_disable(void);

#endif
