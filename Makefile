# lantern: a dynamic tracer that runs bpftrace scripts without LLVM.
#
#   make deps     install the Debian packages needed to build and test
#   make          build build/lantern
#   make check    unit tests + runtime tests (runtime tests need root)
#   make asan     the same checks built with ASan+UBSan (in build-asan/)
#   make bench    benchmarks against bpftrace (never part of check)

CC      ?= gcc
PKGS    := libbpf libelf zlib
BUILD   ?= build
SAN     ?=

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

OPT     ?= -O2 -g
CFLAGS  += $(OPT) -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers \
	   -Wshadow -Wvla -fno-strict-aliasing -D_GNU_SOURCE -Isrc $(PKG_CFLAGS) -MMD -MP $(SAN)
LDFLAGS += $(SAN)
# libbpf, libelf and zlib are linked in (STATIC_LIBS=0 links them
# dynamically): fewer libraries to load at start-up, one file to install.
STATIC_LIBS ?= 1
ifeq ($(STATIC_LIBS),1)
LDLIBS  += -Wl,-Bstatic $(shell pkg-config --static --libs-only-l $(PKGS) 2>/dev/null) -Wl,-Bdynamic
else
LDLIBS  += $(PKG_LIBS)
endif

LIB_SRCS  := $(sort $(shell find src -name '*.c' ! -path src/main.c))
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
PROG_SRCS := $(sort $(wildcard tests/progs/*.c))
PROG_BINS := $(PROG_SRCS:tests/progs/%.c=$(BUILD)/progs/%)

all: $(BUILD)/lantern $(PROG_BINS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/liblantern.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/lantern: $(BUILD)/src/main.o $(BUILD)/liblantern.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/liblantern.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(BUILD)/liblantern.a $(LDLIBS) -lcmocka

# Workloads the runtime tests and benchmarks trace: plain C, -O1 so the
# functions and loops stay as written.
$(BUILD)/progs/%: tests/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -Wall -o $@ $<

unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

runtime: $(BUILD)/lantern $(PROG_BINS)
	tests/runtime/run.sh $(BUILD)

check: all unit runtime

# The whole check suite under ASan+UBSan (leak detection on).
asan:
	$(MAKE) BUILD=build-asan SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" OPT="-O1 -g" check

bench: all
	bench/run.sh $(BUILD)

deps:
	apt-get update -qq || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq build-essential pkg-config \
		libbpf-dev libelf-dev zlib1g-dev libcmocka-dev bpftrace bpftool clang >/dev/null

format:
	clang-format -i $(LIB_SRCS) src/main.c

clean:
	rm -rf build build-asan

.PHONY: all unit runtime check asan bench deps format clean

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
