# SPDX-License-Identifier: GPL-2.0
#
# meshfabric top-level Makefile.
#
#   make              the tool (build/meshfabric) and, where kernel headers
#                     are installed, the module
#   make setup        install what a fresh Debian 12 machine lacks (root)
#   make check        every test this machine can run; last line
#                     "N passed, N failed"
#   make bench        benchmarks (numbers, not pass/fail)
#   make wormhole-sweep ARGS="torus 3"  wormhole against the counting bound
#                     over every shape up to 4096 nodes (minutes to hours)
#   make demo         boot a VM and show a 7x7 torus (ARGS="..." to choose)
#   make scale-bench  create/destroy 1024 and 4096 nodes vs iproute2 (VM)
#   make datapath-bench  ns per hop of the unicast data path (VM)
#   make dataplane-bench iperf3: veth pair/chain vs meshfabric (VM)
#   make bcast-bench  BCAST vs a userspace fan-out on 32x32 (VM)
#   make coll-bench   allreduce: every algorithm 8 B..16 MiB on 16x16 and
#                     8x8x8 tori (model, kernel), MPI across the fabric (VM)
#   make create-profile  where create spends its time (VM)
#   make module       meshfabric.ko against linux-headers (KVER=...)
#   make kernels      fetch the VM's other kernels, build the debug kernel
#   make module-all   meshfabric.ko for 6.1, 6.12, 7.2 (W=1)
#   make docs/papers.md  regenerate the papers' claims (meshfabric papers)
#   make install      the tool, its man page and bash completion
#                     (PREFIX, DESTDIR), the iproute2 plugin (IPLIBDIR);
#                     make uninstall
#   make dkms-install meshfabric.ko through DKMS; make dkms-remove
#
# Kernel Kbuild files are Kbuild and drivers/net/meshfabric/Kbuild; this
# Makefile only drives them.

# The one version of the module and its DKMS package: mf.h's MF_VERSION.
VERSION   := $(shell sed -n 's/^\#define MF_VERSION.*"\(.*\)"/\1/p' \
	       drivers/net/meshfabric/mf.h)
BUILD     ?= build
CC        ?= cc
# The kernel scripts/vm.sh boots by default: image and headers of one
# release, Debian 12's 6.1 first (not merely the newest headers: a second
# kernel's headers gave a module the VM could not load)
ifeq ($(origin KVER),undefined)
KVER      := $(shell bash scripts/kernels.sh host 2>/dev/null)
endif
KDIR      ?= /usr/src/linux-headers-$(KVER)

CORE_DIR  := drivers/net/meshfabric/core
CORE_SRC  := $(sort $(wildcard $(CORE_DIR)/*.c))
TOOL_SRC  := $(sort $(filter-out userspace/main.c,$(wildcard userspace/*.c)))
TEST_SRC  := $(sort $(wildcard userspace/tests/test_*.c))
BENCH_SRC := $(sort $(wildcard userspace/bench/bench_*.c))
PREFIX    ?= /usr/local
DESTDIR   ?=
# Where ip looks for link_<kind>.so (iproute2's LIBDIR/ip): Debian's
# /usr/lib/<multiarch>/ip, upstream's /usr/lib/ip without a triplet
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
IPLIBDIR  ?= /usr/lib$(if $(MULTIARCH),/$(MULTIARCH))/ip
IPLINK_SO := $(BUILD)/link_meshfabric.so

CPPFLAGS  += -Iinclude/uapi -I$(CORE_DIR) -Iuserspace
WFLAGS    := -std=gnu99 -Wall -Wextra -Werror -Wno-unused-parameter
REL_FLAGS := -O2 -g
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=all
# i386 flavour of the unit tests: the core also runs on 32-bit size_t
# (gcc-multilib, installed by make setup)
M32_FLAGS := -O2 -g -m32

objs = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(CORE_SRC) $(TOOL_SRC))

.PHONY: all tool tests module check bench bench-progs wormhole-sweep demo scale-bench \
	datapath-bench dataplane-bench bcast-bench coll-bench create-profile \
	setup clean \
	kernels module-all check-debug \
	man install uninstall version dkms-install dkms-remove
all: tool tests
	@if [ -d "$(KDIR)" ]; then $(MAKE) --no-print-directory module; \
	 else echo "no kernel headers in $(KDIR): module not built (make setup)"; fi

tool: $(BUILD)/meshfabric $(IPLINK_SO)
tests: $(patsubst userspace/tests/%.c,$(BUILD)/rel/tests/%,$(TEST_SRC)) \
       $(patsubst userspace/tests/%.c,$(BUILD)/san/tests/%,$(TEST_SRC)) \
       $(patsubst userspace/tests/%.c,$(BUILD)/m32/tests/%,$(TEST_SRC)) \
       $(BUILD)/san/meshfabric

$(BUILD)/rel/%.o: %.c $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(REL_FLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/san/%.o: %.c $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(SAN_FLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/m32/%.o: %.c $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(M32_FLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/meshfabric: $(BUILD)/rel/userspace/main.o $(call objs,rel)
	$(CC) $(REL_FLAGS) $(LDFLAGS) $^ -o $@
$(BUILD)/san/meshfabric: $(BUILD)/san/userspace/main.o $(call objs,san)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) $^ -o $@

$(BUILD)/rel/tests/%: $(BUILD)/rel/userspace/tests/%.o $(call objs,rel)
	@mkdir -p $(dir $@)
	$(CC) $(REL_FLAGS) $(LDFLAGS) $^ -o $@
$(BUILD)/san/tests/%: $(BUILD)/san/userspace/tests/%.o $(call objs,san)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) $^ -o $@
$(BUILD)/m32/tests/%: $(BUILD)/m32/userspace/tests/%.o $(call objs,m32)
	@mkdir -p $(dir $@)
	$(CC) $(M32_FLAGS) $(LDFLAGS) $^ -o $@

# The iproute2 plugin: `ip -d link show` prints fabric and coordinates.
# It links the core's topo.c (kind names) with its symbols hidden: only
# meshfabric_link_util is ip's.
$(IPLINK_SO): userspace/iproute2/link_meshfabric.c $(CORE_DIR)/topo.c \
	      include/uapi/linux/meshfabric.h $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude/uapi -I$(CORE_DIR) $(WFLAGS) $(REL_FLAGS) $(CFLAGS) \
		-fPIC -fvisibility=hidden -shared $(LDFLAGS) \
		userspace/iproute2/link_meshfabric.c $(CORE_DIR)/topo.c -o $@

# Benchmark programs: each has its own main(), linked with the core only.
bench-progs: $(patsubst userspace/bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))
$(BUILD)/bench/%: $(BUILD)/rel/userspace/bench/%.o $(patsubst %.c,$(BUILD)/rel/%.o,$(CORE_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(REL_FLAGS) $(LDFLAGS) $^ -o $@

# The man page, checked (groff -ww) and rendered to text.
man: $(BUILD)/man/meshfabric.8.txt
$(BUILD)/man/meshfabric.8.txt: docs/meshfabric.8
	@mkdir -p $(dir $@)
	groff -ww -z -man $<
	groff -man -Tascii -P-cbou $< >$@

# docs/papers.md: every numbered claim of the papers, computed by the tool
# (meshfabric papers --markdown); never edited by hand, the CLI tests
# compare it with a fresh run.
docs/papers.md: $(BUILD)/meshfabric
	$(BUILD)/meshfabric papers --markdown >$@.tmp
	mv $@.tmp $@

install: $(BUILD)/meshfabric $(IPLINK_SO)
	install -D -m 0755 $(BUILD)/meshfabric $(DESTDIR)$(PREFIX)/sbin/meshfabric
	install -D -m 0644 $(IPLINK_SO) $(DESTDIR)$(IPLIBDIR)/link_meshfabric.so
	install -D -m 0644 docs/meshfabric.8 $(DESTDIR)$(PREFIX)/share/man/man8/meshfabric.8
	install -D -m 0644 userspace/completion/meshfabric.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/meshfabric

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/sbin/meshfabric \
	      $(DESTDIR)$(IPLIBDIR)/link_meshfabric.so \
	      $(DESTDIR)$(PREFIX)/share/man/man8/meshfabric.8 \
	      $(DESTDIR)$(PREFIX)/share/bash-completion/completions/meshfabric

version:
	@echo $(VERSION)

# meshfabric.ko through DKMS, for the running kernel and every installed
# headers package (scripts/dkms.sh; root)
dkms-install:
	@bash scripts/dkms.sh install $(VERSION)
dkms-remove:
	@bash scripts/dkms.sh remove $(VERSION)

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

check:
	@bash scripts/test.sh

# every selftest on the debug kernel (KASAN, lockdep, kmemleak, ...): the
# test command runs a subset there, the whole suite being beyond its budget
check-debug:
	@MF_KERNELS_TEST=debug MF_DEBUG_FULL=1 MF_VM_DEBUG_TIMEOUT=$${MF_VM_DEBUG_TIMEOUT:-7200} \
		bash scripts/test.sh 55-vm-kernels

bench: tool bench-progs
	@bash scripts/bench.sh

# every shape of ARGS (userspace/bench/sweep_wormhole.c), docs/wormhole.md
wormhole-sweep: $(BUILD)/bench/sweep_wormhole
	@$< $(ARGS)

demo:
	@bash scripts/demo.sh $(ARGS)

# meshfabric create/destroy of 32x32 and 64x64 tori vs iproute2, in the VM
scale-bench:
	@bash scripts/scale-bench.sh $(ARGS)

# ns per hop of the unicast data path on a 65536-node ring, in the VM
datapath-bench: module tool
	@$(MAKE) --no-print-directory -C selftests
	@bash scripts/vm.sh --mem 2048 -- sh -c "cd /mf/selftests && sh ./bench_hop.sh"

# iperf3 through a veth pair, a veth chain and meshfabric 1 and 6 hops
dataplane-bench: module tool
	@bash scripts/dataplane-bench.sh $(ARGS)

# BCAST on 32x32 against a userspace fan-out of 1023 UDP datagrams
bcast-bench: module tool
	@bash scripts/bcast-bench.sh $(ARGS)

# allreduce: model, kernel fabric time and MPI (docs/coll-bench.md)
coll-bench: module tool
	@bash scripts/coll-bench.sh $(ARGS)

# where `meshfabric create` spends its time, against `ip netns add`
create-profile: module tool
	@bash scripts/create-profile.sh $(ARGS)

setup:
	@bash scripts/setup.sh

# the VM's other kernels: fetched from Debian's archive, and the debug
# kernel built (all cached under /var/tmp/meshfabric)
kernels:
	@for k in 6.1 6.12 7.2 debug; do bash scripts/kernels.sh module $$k || exit 1; done

module-all: kernels

clean:
	rm -rf $(BUILD)
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean >/dev/null; fi

-include $(shell find $(BUILD) -type f -name '*.d' 2>/dev/null)
