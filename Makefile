# lantern: a dynamic tracer that runs bpftrace scripts without LLVM.
#
#   make deps     install the Debian packages needed to build and test
#   make          build build/lantern
#   make check    unit, error-corpus, runtime, layering, symbol and fuzz checks (runtime
#                 tests need root; what a non-root run skips is listed at the end)
#   make asan     the same checks built with ASan+UBSan (in build-asan/)
#   make fuzz     run each libFuzzer target (tests/fuzz/README.md) for FUZZ_TIME seconds
#                 (default 600), one after the other
#   make bench    benchmarks against bpftrace (never part of check)
#   make soak     lantern for MINUTES (default 30) under a busy load: RSS, descriptors,
#                 lost events, leftovers, scrapes judged (bench/soak.sh; root)
#   make install  install lantern, its man page and its bash completion under
#                 $(DESTDIR)$(PREFIX) (PREFIX=/usr/local by default, DESTDIR empty)
#   make uninstall      remove them (same PREFIX and DESTDIR)
#   make install-check  install into a temporary DESTDIR, check, uninstall (no root)
#   V=1           show the compiler's command lines

CC      ?= gcc
PKGS    := libbpf libdw libelf zlib liblzma libprotobuf-c
BUILD   ?= build
SAN     ?=

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

OPT     ?= -O2 -g
CFLAGS  += $(OPT) -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers \
	   -Wshadow -Wvla -fno-strict-aliasing -D_GNU_SOURCE -Isrc -I$(BUILD)/gen $(PKG_CFLAGS) -MMD -MP $(SAN)
LDFLAGS += $(SAN)
# libbpf, libelf and zlib are linked in (STATIC_LIBS=0 links them
# dynamically): fewer libraries to load at start-up, one file to install.
STATIC_LIBS ?= 1
ifeq ($(STATIC_LIBS),1)
LDLIBS  += -Wl,-Bstatic $(shell pkg-config --static --libs-only-l $(PKGS) 2>/dev/null) -Wl,-Bdynamic
else
LDLIBS  += $(PKG_LIBS)
endif

LIB_SRCS  := $(sort $(shell find src -name '*.c' ! -path src/main.c ! -path 'src/trace/xlat/*'))
# C generated from src/output/profile.proto (pprof) by protoc-c
GEN_PROTO := $(BUILD)/gen/output/profile.pb-c
# lantern trace's constants: src/trace/xlat/NAME.list -> table trace_xlat_NAME,
# its values from the system's headers (gen.sh); the kernel's own ABI where
# glibc's differs, from a program run at build time (kabi_gen.c)
XLAT_LISTS := $(sort $(wildcard src/trace/xlat/*.list))
XLAT_OBJS := $(XLAT_LISTS:src/trace/xlat/%.list=$(BUILD)/src/trace/xlat/%.o)
XLAT_CS   := $(XLAT_LISTS:src/trace/xlat/%.list=$(BUILD)/gen/trace/xlat/%.c)
GEN_HDRS  := $(BUILD)/gen/trace/xlat_lists.h $(BUILD)/gen/trace/kabi.h
.SECONDARY: $(XLAT_CS)
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN_PROTO).o $(XLAT_OBJS)
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
PROG_SRCS := $(sort $(wildcard tests/progs/*.c))
PROG_CXX_SRCS := $(sort $(wildcard tests/progs/*.cc))
PROG_BINS := $(PROG_SRCS:tests/progs/%.c=$(BUILD)/progs/%) $(PROG_CXX_SRCS:tests/progs/%.cc=$(BUILD)/progs/%) \
	     $(BUILD)/progs/calls_loop_fp

RECORD := $(BUILD)/tests/record

all: $(BUILD)/lantern $(PROG_BINS) $(RECORD)

Q := $(if $(V),,@)
say = $(if $(V),,@echo "  $(1) $(2)";)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<) $(CC) $(CFLAGS) -c $< -o $@

$(GEN_PROTO).c $(GEN_PROTO).h: src/output/profile.proto
	@mkdir -p $(dir $@)
	$(call say,PROTOC,$<) protoc-c --c_out=$(dir $@) --proto_path=src/output $<

$(GEN_PROTO).o: $(GEN_PROTO).c $(GEN_PROTO).h
	$(call say,CC,$<) $(CC) $(OPT) -std=gnu11 -fno-strict-aliasing $(PKG_CFLAGS) $(SAN) -c $< -o $@

$(BUILD)/src/output/pprof.o: $(GEN_PROTO).h

$(LIB_OBJS) $(BUILD)/src/main.o: | $(GEN_HDRS)

$(BUILD)/gen/trace/xlat/%.c: src/trace/xlat/%.list src/trace/xlat/gen.sh
	@mkdir -p $(dir $@)
	$(call say,GEN,$@) sh src/trace/xlat/gen.sh c $< > $@.tmp && mv $@.tmp $@

$(BUILD)/src/trace/xlat/%.o: $(BUILD)/gen/trace/xlat/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<) $(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/gen/trace/xlat_lists.h: $(XLAT_LISTS) src/trace/xlat/gen.sh
	@mkdir -p $(dir $@)
	$(call say,GEN,$@) sh src/trace/xlat/gen.sh h $(XLAT_LISTS) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/trace/kabi.h: src/trace/xlat/kabi_gen.c
	@mkdir -p $(dir $@)
	$(call say,GEN,$@) $(CC) -O0 -o $(BUILD)/gen/kabi_gen $< && $(BUILD)/gen/kabi_gen > $@.tmp && mv $@.tmp $@

$(BUILD)/liblantern.a: $(LIB_OBJS)
	@rm -f $@
	$(call say,AR,$@) ar rcs $@ $^

$(BUILD)/lantern: $(BUILD)/src/main.o $(BUILD)/liblantern.a
	$(call say,LINK,$@) $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/liblantern.a
	@mkdir -p $(dir $@)
	$(call say,CC,$@) $(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(BUILD)/liblantern.a $(LDLIBS) -lcmocka

# Workloads the runtime tests and benchmarks trace: plain C, -O1 so the
# functions and loops stay as written.
$(BUILD)/progs/%: tests/progs/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@) $(CC) -O1 -g -Wall -pthread -o $@ $<

# The probe suites run lantern through it: it records each run's status
# and the BPF objects lantern held (tests/record.c). Never sanitized.
$(RECORD): tests/record.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@) $(CC) -O2 -g -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -o $@ $<

# the same with frame pointers: the kernel walks its user stacks (ustack_unwind=auto)
$(BUILD)/progs/%_fp: tests/progs/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@) $(CC) -O1 -g -fno-omit-frame-pointer -Wall -pthread -o $@ $<

# C++ workloads: demangled names
$(BUILD)/progs/%: tests/progs/%.cc
	@mkdir -p $(dir $@)
	$(call say,CXX,$@) g++ -O1 -g -Wall -o $@ $<

unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

runtime: $(BUILD)/lantern $(PROG_BINS) $(RECORD)
	tests/runtime/run.sh $(BUILD)

errors: $(BUILD)/lantern $(RECORD)
	tests/errors/run.sh $(BUILD)

# src/README.md's layer table, no local externs, file and function sizes
layers:
	tests/layers.sh

# every global carries its folder's prefix and no library defines it too
symbols: $(BUILD)/lantern
	tests/symbols.sh $(BUILD)

# Suites that cannot run (no root) add a line to $(BUILD)/skipped.
skipped-summary = @if [ -s $(1)/skipped ]; then echo "skipped in this run:"; sed 's/^/  /' $(1)/skipped; \
	else echo "every suite ran"; fi

check: all
	@rm -f $(BUILD)/skipped
	@$(MAKE) --no-print-directory unit errors runtime layers symbols install-check fuzz-check
	$(call skipped-summary,$(BUILD))

# The unit, error and runtime suites under ASan+UBSan, leak detection on
# (the fuzz run of `make check` is built with them already).
asan:
	@rm -f build-asan/skipped
	$(MAKE) BUILD=build-asan SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" OPT="-O1 -g" all unit errors runtime
	$(call skipped-summary,build-asan)

bench: all
	bench/run.sh $(BUILD)

MINUTES ?= 30
soak: all
	BUILD=$(BUILD) bench/soak.sh $(MINUTES)

# bin/lantern, share/man/man8/lantern.8 and the bash completion under
# $(DESTDIR)$(PREFIX); tests/install.sh checks them (no root needed)
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  = $(PREFIX)/bin
MAN8DIR = $(PREFIX)/share/man/man8
COMPDIR = $(PREFIX)/share/bash-completion/completions

install: $(BUILD)/lantern
	install -D -m 755 $(BUILD)/lantern $(DESTDIR)$(BINDIR)/lantern
	install -D -m 644 doc/lantern.8 $(DESTDIR)$(MAN8DIR)/lantern.8
	install -D -m 644 doc/lantern.bash $(DESTDIR)$(COMPDIR)/lantern

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/lantern $(DESTDIR)$(MAN8DIR)/lantern.8 $(DESTDIR)$(COMPDIR)/lantern

install-check:
	tests/install.sh $(BUILD)

# libFuzzer targets (tests/fuzz/README.md says what each drives), built
# with clang and ASan+UBSan: the whole compiler (compile), lantern trace's
# record printer (trace), the readers of the ELF files scripts name (elf),
# the C definitions, #define and #include lines of scripts (cdef).
# Target NAME is tests/fuzz/fuzz_NAME.c; its seeds and every crash ever
# found are in tests/fuzz/corpus-NAME (FUZZ_SEEDS_NAME adds directories,
# tests/fuzz/NAME.dict is its dictionary if there is one),
# new inputs go to build-fuzz/corpus-NAME. `make fuzz` runs each for
# FUZZ_TIME seconds, `make check` for FUZZ_CHECK_TIME, one after the other
# (FUZZ_TARGETS=NAME picks some); a crash fails the run.
FUZZ_BUILD := build-fuzz
FUZZ_TIME ?= 600
FUZZ_CHECK_TIME ?= 60
FUZZ_TARGETS ?= compile trace elf cdef
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_SEEDS_compile := tests/unit/fixtures
FUZZ_MAX_LEN_elf := 65536

ifneq ($(BUILD),$(FUZZ_BUILD))
$(FUZZ_BUILD)/liblantern.a: $(LIB_SRCS) $(wildcard src/*/*.h src/*/*.def) $(XLAT_LISTS)
	$(Q)$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang OPT="-O1 -g" \
		SAN="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $@
endif

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_BUILD)/liblantern.a
	$(call say,LINK,$@) clang -O1 -g $(filter-out -MMD -MP $(SAN),$(CFLAGS)) -fsanitize=fuzzer $(FUZZ_SAN) \
		-o $@ $< $(FUZZ_BUILD)/liblantern.a $(PKG_LIBS)

# target $(1) for $(2) seconds, the last lines of its log; rc=1 on a crash
fuzz-one = mkdir -p $(FUZZ_BUILD)/corpus-$(1); echo "== fuzz_$(1): $(2) s"; \
	$(FUZZ_BUILD)/fuzz_$(1) -max_total_time=$(2) -timeout=10 -rss_limit_mb=2048 \
	-max_len=$(or $(FUZZ_MAX_LEN_$(1)),8192) $(addprefix -dict=,$(wildcard tests/fuzz/$(1).dict)) \
	-print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/$(1)- \
	$(FUZZ_BUILD)/corpus-$(1) tests/fuzz/corpus-$(1) $(FUZZ_SEEDS_$(1)) > $(FUZZ_BUILD)/fuzz-$(1).log 2>&1 \
	|| rc=1; tail -n 12 $(FUZZ_BUILD)/fuzz-$(1).log;
fuzz-run = @rc=0; $(foreach t,$(FUZZ_TARGETS),$(call fuzz-one,$(t),$(1))) exit $$rc

fuzz: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
	$(call fuzz-run,$(FUZZ_TIME))

fuzz-check: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
	$(call fuzz-run,$(FUZZ_CHECK_TIME))

deps:
	apt-get update -qq || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq build-essential pkg-config \
		libbpf-dev libdw-dev libelf-dev zlib1g-dev liblzma-dev libprotobuf-c-dev protobuf-c-compiler \
		protobuf-compiler libcmocka-dev bpftrace bpftool clang libclang-rt-14-dev \
		util-linux python3 systemtap-sdt-dev strace linux-perf iputils-ping \
		libmicrohttpd-dev prometheus man-db bash-completion >/dev/null

format:
	clang-format -i $(LIB_SRCS) src/main.c

clean:
	rm -rf build build-asan build-fuzz

.PHONY: all unit errors runtime layers symbols check asan bench soak deps format clean fuzz fuzz-check \
	install uninstall install-check

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
