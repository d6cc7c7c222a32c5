// SPDX-License-Identifier: MIT
/* Finishing a plan's code for loading: see code.h. */
#include "plan/code.h"

const char *plan_load_const_name(enum load_const c)
{
	static const char *const names[LC_COUNT_] = {
		[LC_CPID] = "$cpid",
		[LC_START_NS] = "$start_ns",
		[LC_SELF_PID] = "$self_pid",
		[LC_NCPUS] = "$ncpus",
		[LC_TAI_OFFSET] = "$tai_offset",
	};
	return (unsigned)c < LC_COUNT_ ? names[c] : "$?";
}

int plan_bpf_resolve(struct bpf_insn *insns, int n, const int *map_fds, size_t nmaps,
		const int64_t *values)
{
	for (int k = 0; k < n; k++) {
		struct bpf_insn *b = &insns[k];
		if (b->code != (BPF_LD | BPF_DW | BPF_IMM)) {
			/* a 32-bit immediate operand */
			if (b->src_reg == BPF_PSEUDO_LOAD_CONST) {
				if (b->imm < 0 || b->imm >= LC_COUNT_)
					return -1;
				b->src_reg = 0;
				b->imm = (int32_t)values[b->imm];
			}
			continue;
		}
		if (k + 1 >= n)
			return -1;
		if (b->src_reg == BPF_PSEUDO_MAP_FD || b->src_reg == BPF_PSEUDO_MAP_VALUE) {
			if (b->imm < 0 || (size_t)b->imm >= nmaps)
				return -1;
			b->imm = map_fds[b->imm];
		} else if (b->src_reg == BPF_PSEUDO_LOAD_CONST) {
			if (b->imm < 0 || b->imm >= LC_COUNT_)
				return -1;
			uint64_t v = (uint64_t)values[b->imm];
			b->src_reg = 0;
			b->imm = (uint32_t)v;
			b[1].imm = (uint32_t)(v >> 32);
		}
		k++;
	}
	return 0;
}
