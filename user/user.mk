# user/user.mk - builds rewind's user programs and packs them into the initrd.
#
# Included by the top Makefile (which defines BUILD, Q and the deps target).
# Every program is an ordinary static Linux x86-64 binary built with musl, so
# it also runs, and is tested, on the build host. What libc lacks of the
# Linux ABI (futex operations ...) comes from uapi/ (uapi/README.md), which
# -I. lets a program include as "uapi/futex.h".
#
#   make user                  the programs and $(BUILD)/initrd.cpio
#
# Programs: user/<name>.c (init, sh, vsyscalltests), the small tools in
# user/bin/<name>.c and the benchmarks in user/bench/<name>.c, one file each;
# the test suites, one directory each, user/suites/<name>/*.c (usertests,
# pthreadtests, signaltests), all its files making one program. Every program
# is linked with the helpers in user/lib/ and lands in
# $(BUILD)/user/bin/<name>. The initrd tree is staged in $(BUILD)/initrd/:
#
#   /sbin/init   /bin/<everything else>   /etc/<user/etc/*>
#   /etc/usertests.dat (a generated file usertests checks byte by byte)
#   /etc/experiments/ (the experiments' plans for /bin/experiment: tools/onboard-plans)
#   /dev /proc /tmp (empty: where the kernel mounts or creates things)

USER_CC     := musl-gcc
USER_CFLAGS := -std=gnu11 -static -O2 -Wall -Wextra -Werror -Iuser -I.
USER_OUT    := $(BUILD)/user

USER_LIB_OBJS := $(patsubst user/lib/%.c,$(USER_OUT)/lib/%.o,$(sort $(wildcard user/lib/*.c)))
USER_LIB      := $(USER_OUT)/libuser.a
USER_TOP_BINS := $(patsubst user/%.c,$(USER_OUT)/bin/%,$(sort $(wildcard user/*.c)))
USER_BIN_BINS := $(patsubst user/bin/%.c,$(USER_OUT)/bin/%,$(sort $(wildcard user/bin/*.c)))
USER_BENCH_BINS := $(patsubst user/bench/%.c,$(USER_OUT)/bin/%,$(sort $(wildcard user/bench/*.c)))
USER_SUITE_SRCS := $(sort $(wildcard user/suites/*/*.c))
USER_SUITES     := $(sort $(notdir $(patsubst %/,%,$(dir $(USER_SUITE_SRCS)))))
USER_SUITE_BINS := $(USER_SUITES:%=$(USER_OUT)/bin/%)
USER_SUITE_OBJS := $(patsubst user/%.c,$(USER_OUT)/%.o,$(USER_SUITE_SRCS))
USER_BINS     := $(USER_TOP_BINS) $(USER_BIN_BINS) $(USER_BENCH_BINS) $(USER_SUITE_BINS)
USER_ETC      := $(sort $(wildcard user/etc/*))

INITRD_DIR := $(BUILD)/initrd
INITRD     := $(BUILD)/initrd.cpio

.PHONY: user
user: $(INITRD)

$(USER_LIB_OBJS) $(USER_SUITE_OBJS): $(USER_OUT)/%.o: user/%.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  MUSLCC  $<")
	$(Q)$(USER_CC) $(USER_CFLAGS) -MMD -MP -c -o $@ $<

$(USER_LIB): $(USER_LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

# One rule for both source places: compile and link in one step.
define user_program
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  MUSLCC  $<")
	$(Q)$(USER_CC) $(USER_CFLAGS) -MMD -MP -MT $@ -MF $@.d -o $@ $< $(USER_LIB)
endef

$(USER_TOP_BINS): $(USER_OUT)/bin/%: user/%.c $(USER_LIB) | deps
	$(user_program)

$(USER_BIN_BINS): $(USER_OUT)/bin/%: user/bin/%.c $(USER_LIB) | deps
	$(user_program)

$(USER_BENCH_BINS): $(USER_OUT)/bin/%: user/bench/%.c $(USER_LIB) | deps
	$(user_program)

# A suite's program, from the objects of its directory (each compiled on its
# own above, so that editing one file or a header recompiles only what uses it).
# The directory itself is a prerequisite too: removing a file relinks.
define user_suite
$(USER_OUT)/bin/$(1): $(filter $(USER_OUT)/suites/$(1)/%,$(USER_SUITE_OBJS)) user/suites/$(1) $(USER_LIB) | deps
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(USER_CC) $$(USER_CFLAGS) -o $$@ $$(filter %.o,$$^) $$(USER_LIB)
endef
$(foreach suite,$(USER_SUITES),$(eval $(call user_suite,$(suite))))

# A build tree from before the suites were directories holds a
# bin/<suite>.d naming the old single source, which would stop the build:
# such a file is removed, and make starts again without it.
$(USER_SUITE_BINS:%=%.d): FORCE
	$(Q)rm -f $@

# The tree is rebuilt from scratch each time, so that a deleted program
# does not linger in the initrd. Owner root and sorted names keep the
# archive the same from build to build.
ONBOARD_PLAN_SRCS := $(wildcard experiments/*.toml) tools/onboard-plans tools/reprolib/plan.py \
	tools/reprolib/experiments.py
$(INITRD): $(USER_BINS) $(USER_ETC) $(ONBOARD_PLAN_SRCS) user/user.mk | deps
	@$(if $(Q),echo "  CPIO    $@")
	$(Q)rm -rf $(INITRD_DIR)
	$(Q)mkdir -p $(INITRD_DIR)/sbin $(INITRD_DIR)/bin $(INITRD_DIR)/etc \
		$(INITRD_DIR)/dev $(INITRD_DIR)/proc
	$(Q)mkdir -m 1777 $(INITRD_DIR)/tmp
	$(Q)cp $(USER_OUT)/bin/init $(INITRD_DIR)/sbin/init
	$(Q)cp $(filter-out $(USER_OUT)/bin/init,$(USER_BINS)) $(INITRD_DIR)/bin/
	$(Q)cp $(USER_ETC) $(INITRD_DIR)/etc/
	$(Q)for i in $$(seq 1 300); do \
		printf 'usertests.dat line %04d: the initrd keeps every byte\n' $$i; \
	done > $(INITRD_DIR)/etc/usertests.dat
	$(Q)ln -s usertests.dat $(INITRD_DIR)/etc/usertests.link
	$(Q)tools/onboard-plans $(INITRD_DIR)/etc/experiments
	$(Q)cd $(INITRD_DIR) && find . -mindepth 1 | LC_ALL=C sort | \
		cpio -o -H newc -R 0:0 --reproducible --quiet > $(abspath $@).tmp
	$(Q)mv $@.tmp $@
