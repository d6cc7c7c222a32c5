// SPDX-License-Identifier: MIT
/*
 * --info: what this kernel and lantern support, in bpftrace's sections.
 * Everything is probed for real: tiny programs loaded (and closed), maps
 * created, PMUs and tracefs looked up, perf events opened. Nothing stays
 * attached: the one attachment (fentry) is closed at once.
 */
#include "runtime/info.h"
#include "base/util.h"
#include "sys/bpfsys.h"
#include "sys/perf.h"
#include "sys/tracefs.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <bpf/libbpf_version.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char *yes(bool b)
{
	return b ? "yes" : "no";
}

/* Load insns as a program of type; true when the kernel takes it. log: why not. */
static bool loads(enum bpf_prog_type type, const struct bpf_insn *insns, uint32_t n, char *log,
		  size_t logsz)
{
	int fd;

	if (log)
		log[0] = 0;
	fd = sys_prog_load(type, "lt_info", insns, n, 0, 0, log, log ? logsz : 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * Does the kernel know helper id for a program of type? A call to it with
 * whatever is in the registers: the verifier says "unknown func" or
 * "cannot use helper" when it does not; a complaint about the arguments
 * means it knows the helper (bpftool's feature probe does the same).
 */
static bool has_helper(enum bpf_prog_type type, int id)
{
	struct bpf_insn insns[] = {
		{.code = BPF_JMP | BPF_CALL, .imm = id},
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	static char log[16384];

	if (loads(type, insns, ARRAY_SIZE(insns), log, sizeof(log)))
		return true;
	return log[0] && !strstr(log, "invalid func") && !strstr(log, "unknown func") &&
	       !strstr(log, "cannot use helper") && !strstr(log, "not supported");
}

static void helpers(FILE *f)
{
	static const struct {
		const char *name;
		int id;
		enum bpf_prog_type type;
	} list[] = {
		{"probe_read", BPF_FUNC_probe_read, BPF_PROG_TYPE_KPROBE},
		{"probe_read_str", BPF_FUNC_probe_read_str, BPF_PROG_TYPE_KPROBE},
		{"probe_read_user", BPF_FUNC_probe_read_user, BPF_PROG_TYPE_KPROBE},
		{"probe_read_user_str", BPF_FUNC_probe_read_user_str, BPF_PROG_TYPE_KPROBE},
		{"probe_read_kernel", BPF_FUNC_probe_read_kernel, BPF_PROG_TYPE_KPROBE},
		{"probe_read_kernel_str", BPF_FUNC_probe_read_kernel_str, BPF_PROG_TYPE_KPROBE},
		{"get_current_cgroup_id", BPF_FUNC_get_current_cgroup_id, BPF_PROG_TYPE_KPROBE},
		{"send_signal", BPF_FUNC_send_signal, BPF_PROG_TYPE_KPROBE},
		{"override_return", BPF_FUNC_override_return, BPF_PROG_TYPE_KPROBE},
		{"get_boot_ns", BPF_FUNC_ktime_get_boot_ns, BPF_PROG_TYPE_KPROBE},
		{"dpath", BPF_FUNC_d_path, BPF_PROG_TYPE_KPROBE},
		{"skboutput", BPF_FUNC_skb_output, BPF_PROG_TYPE_KPROBE},
		{"ringbuf_output", BPF_FUNC_ringbuf_output, BPF_PROG_TYPE_TRACEPOINT},
		{"get_func_ip", BPF_FUNC_get_func_ip, BPF_PROG_TYPE_KPROBE},
	};

	fputs("Kernel helpers\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(list); i++)
		fprintf(f, "  %s: %s\n", list[i].name, yes(has_helper(list[i].type, list[i].id)));
	fputc('\n', f);
}

/* A program of n instructions (r0 = 0 ...; exit): the verifier's limit. */
static bool takes_insns(uint32_t n)
{
	struct bpf_insn *insns = util_xcalloc(n, sizeof(*insns));
	bool ok;

	for (uint32_t i = 0; i + 1 < n; i++)
		insns[i] = (struct bpf_insn){.code = BPF_ALU64 | BPF_MOV | BPF_K};
	insns[n - 1] = (struct bpf_insn){.code = BPF_JMP | BPF_EXIT};
	ok = loads(BPF_PROG_TYPE_TRACEPOINT, insns, n, NULL, 0);
	free(insns);
	return ok;
}

/* r0 = 0; do r0 += 1; while (r0 < 4); exit */
static bool takes_loops(void)
{
	struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
		{.code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_0, .imm = 1},
		{.code = BPF_JMP | BPF_JLT | BPF_K, .dst_reg = BPF_REG_0, .off = -2, .imm = 4},
		{.code = BPF_JMP | BPF_EXIT},
	};
	return loads(BPF_PROG_TYPE_TRACEPOINT, insns, ARRAY_SIZE(insns), NULL, 0);
}

static bool map_ok(enum bpf_map_type type, uint32_t key, uint32_t value, uint32_t n)
{
	int fd = sys_map_create(type, "lt_info", 0, key, value, n);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* bpf_map_lookup_batch on an empty hash: ENOENT when the kernel has batches */
static bool map_batch(void)
{
	int fd = sys_map_create(BPF_MAP_TYPE_HASH, "lt_info", 0, 8, 8, 4);
	uint64_t keys[4], values[4], out;
	uint32_t count = 4;
	int rc;

	if (fd < 0)
		return false;
	rc = bpf_map_lookup_batch(fd, NULL, &out, keys, values, &count, NULL);
	close(fd);
	return rc == 0 || errno == ENOENT;
}

static void features(FILE *f)
{
	fputs("Kernel features\n", f);
	fprintf(f, "  Instruction limit: %d\n", takes_insns(4097) ? 1000000 : 4096);
	fprintf(f, "  Loop support: %s\n", yes(takes_loops()));
	fprintf(f, "  btf: %s\n", yes(access("/sys/kernel/btf/vmlinux", R_OK) == 0));
	fprintf(f, "  map batch: %s\n", yes(map_batch()));
	fprintf(f, "  ring buffer: %s\n", yes(map_ok(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096)));
	fputc('\n', f);

	fputs("Map types\n", f);
	fprintf(f, "  hash: %s\n", yes(map_ok(BPF_MAP_TYPE_HASH, 8, 8, 1)));
	fprintf(f, "  percpu hash: %s\n", yes(map_ok(BPF_MAP_TYPE_PERCPU_HASH, 8, 8, 1)));
	fprintf(f, "  array: %s\n", yes(map_ok(BPF_MAP_TYPE_ARRAY, 4, 8, 1)));
	fprintf(f, "  percpu array: %s\n", yes(map_ok(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1)));
	fprintf(f, "  stack_trace: %s\n", yes(map_ok(BPF_MAP_TYPE_STACK_TRACE, 4, 8, 1)));
	fprintf(f, "  perf_event_array: %s\n", yes(map_ok(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 1)));
	fprintf(f, "  ringbuf: %s\n", yes(map_ok(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096)));
	fputc('\n', f);
}

static bool pmu(const char *name)
{
	char dir[128];
	int retbit;

	snprintf(dir, sizeof(dir), "/sys/bus/event_source/devices/%s", name);
	return sys_probe_pmu(dir, &retbit) >= 0;
}

static bool perf_event(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr = {.type = type, .size = sizeof(attr), .config = config};
	int fd;

	attr.sample_period = 1000000;
	attr.disabled = 1;
	fd = sys_perf_event_open_fd(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* fentry: a tracing program on a kernel function, attached and closed at once */
static bool fentry(void)
{
	struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	struct btf *btf = btf__load_vmlinux_btf();
	int id, fd, link;

	if (!btf)
		return false;
	id = btf__find_by_name_kind(btf, "do_nanosleep", BTF_KIND_FUNC);
	btf__free(btf);
	if (id <= 0)
		return false;
	fd = sys_prog_load(BPF_PROG_TYPE_TRACING, "lt_info", insns, ARRAY_SIZE(insns),
			   BPF_TRACE_FENTRY, id, NULL, 0);
	if (fd < 0)
		return false;
	link = bpf_raw_tracepoint_open(NULL, fd);
	if (link >= 0)
		close(link);
	close(fd);
	return link >= 0;
}

static void probes(FILE *f)
{
	char err[256];
	struct bpf_insn ret0[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	bool tracefs = sys_tracefs_path(err, sizeof(err)) != NULL;

	fputs("Probe types\n", f);
	fprintf(f, "  kprobe: %s\n", yes(pmu("kprobe")));
	fprintf(f, "  uprobe: %s\n", yes(pmu("uprobe")));
	fprintf(f, "  usdt: %s\n", yes(pmu("uprobe")));
	fprintf(f, "  tracepoint: %s\n", yes(tracefs && sys_tracefs_category_exists("syscalls")));
	fprintf(f, "  rawtracepoint: %s\n",
		yes(loads(BPF_PROG_TYPE_RAW_TRACEPOINT, ret0, ARRAY_SIZE(ret0), NULL, 0)));
	fprintf(f, "  perf_event (profile, interval, software): %s\n",
		yes(perf_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK)));
	fprintf(f, "  hardware: %s\n",
		yes(perf_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)));
	fprintf(f, "  kfunc: %s\n", yes(fentry()));
	fputc('\n', f);
}

int rt_info_print(FILE *f, const char *version)
{
	struct utsname u;

	if (uname(&u) == 0) {
		fputs("System\n", f);
		fprintf(f, "  OS: %s %s %s\n", u.sysname, u.release, u.version);
		fprintf(f, "  Arch: %s\n\n", u.machine);
	}
	fputs("Build\n", f);
	fprintf(f, "  version: v%s\n", version);
	fputs("  code generator: lantern's own (no LLVM)\n", f);
	fprintf(f, "  libbpf: %d.%d\n", LIBBPF_MAJOR_VERSION, LIBBPF_MINOR_VERSION);
	fputs("  libdw (DWARF support): yes\n\n", f);
	if (geteuid() != 0)
		fputs("(not root: the kernel's answers below may say no for that reason)\n\n", f);
	helpers(f);
	features(f);
	probes(f);
	sys_tracefs_release();
	return 0;
}
