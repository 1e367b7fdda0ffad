# Makefile - builds rewind's kernel, ISO and tests; runs QEMU.
#
#   make            kernel.elf and the bootable hybrid ISO (build/rewind.iso)
#   make qemu       boot it under QEMU, serial console on this terminal
#   make test       host unit tests + boot tests (BIOS and UEFI), last line "N passed, N failed"
#   make help       every target and variable
#
# Objects go to build/, mirroring the source tree. Missing packages are
# installed by tools/deps (apt-get) or named with the exact command.

# PARAVIRT=y (default): Linux 2.6.2x's CONFIG_PARAVIRT, call sites patched by
# the paravirt= knob; PARAVIRT=n: the native instructions inline, no table
# (kernel/x86/paravirt.h). A PARAVIRT=n build goes to its own tree.
# PV_CALLEE_SAVE=y (with PARAVIRT=y): the page-table accessors' sites
# compiled callee-save with register-saving thunks, as Linux 2.6.30; default
# n, 2.6.25's full-clobber sites. Each goes to its own tree.
PARAVIRT ?= y
PV_CALLEE_SAVE ?= n
ifeq ($(PARAVIRT),n)
BUILD    ?= build/nopv
else ifeq ($(PV_CALLEE_SAVE),y)
BUILD    ?= build/pv30
else
BUILD    ?= build
endif
CC       ?= gcc
HOSTCC   ?= gcc
NASM     ?= nasm
LD       ?= ld
# Kernel command line baked into grub.cfg; CMDLINE= is appended at run time.
BOOT_CMDLINE ?=
GRUB_TIMEOUT ?= 5
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

KERNEL_DIRS := kernel $(patsubst %/,%,$(wildcard kernel/*/)) mm locking ipc fs $(patsubst %/,%,$(wildcard fs/*/)) drivers tests/kernel
# asm-offsets.c is compiled to assembly only, never linked (the rule below).
KERNEL_C    := $(filter-out kernel/x86/asm-offsets.c,$(sort $(foreach d,$(KERNEL_DIRS),$(wildcard $(d)/*.c))))
KERNEL_ASM  := $(sort $(wildcard boot/*.asm) $(foreach d,$(KERNEL_DIRS),$(wildcard $(d)/*.asm)))
ifeq ($(PARAVIRT),n)
KERNEL_C    := $(filter-out kernel/x86/paravirt.c kernel/x86/paravirt_patch.c,$(KERNEL_C))
endif
KERNEL_OBJS := $(KERNEL_C:%.c=$(BUILD)/%.o) $(KERNEL_ASM:%.asm=$(BUILD)/%.o)

WARN     := -Wall -Wextra -Werror -Wno-unused-parameter -Wstrict-prototypes -Wmissing-prototypes
KCFLAGS  := -std=gnu11 -O2 -g $(WARN) -I. -I$(BUILD)/generated \
	-ffreestanding -fno-pic -fno-pie -fno-stack-protector -fno-builtin \
	-fno-asynchronous-unwind-tables -fno-omit-frame-pointer -fno-optimize-sibling-calls \
	-mno-red-zone -mcmodel=kernel -mgeneral-regs-only -mno-mmx -mno-sse -mno-sse2 \
	-fcf-protection=none -MMD -MP $(if $(filter n,$(PARAVIRT)),,-DCONFIG_PARAVIRT \
	$(if $(filter y,$(PV_CALLEE_SAVE)),-DCONFIG_PV_CALLEE_SAVE))
KLDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments -T linker.ld

KERNEL := $(BUILD)/kernel.elf
ISO    := $(BUILD)/rewind.iso

.PHONY: all iso qemu qemu-gdb gdb print-qemu test unit-test boot-test deps clean help
all: iso

# --- the kernel, linked twice: the second link carries the symbol table -----
# The natives keep their own names in a profile: no merging of identical bodies.
$(BUILD)/kernel/x86/paravirt.o: KCFLAGS += -fno-ipa-icf

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(KCFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.asm | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NASM    $<")
	$(Q)$(NASM) -f elf64 -g -F dwarf -I. -I$(BUILD)/generated/ $(if $(filter n,$(PARAVIRT)),,-DCONFIG_PARAVIRT) \
		-MD $(@:.o=.d) -MP -o $@ $<
	$(Q)# macro-local labels (..@N.name) would name code in backtraces, profiles and gdb
	$(Q)objcopy --wildcard --strip-symbol='..@*' $@

# The numbers the assembly shares with C - struct offsets, the trap frame's
# layout, selectors, vectors - as NASM %defines computed by the compiler from
# kernel/x86/asm-offsets.c's markers. Its .d file names the headers it read,
# so a changed struct regenerates the include and reassembles the .asm files.
ASM_OFFSETS := $(BUILD)/generated/asm-offsets.inc
$(BUILD)/kernel/x86/asm-offsets.s: kernel/x86/asm-offsets.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC -S   $<")
	$(Q)$(CC) $(KCFLAGS) -S -o $@ $<
$(ASM_OFFSETS): $(BUILD)/kernel/x86/asm-offsets.s
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q){ echo "; generated from kernel/x86/asm-offsets.c by the Makefile: do not edit"; \
	  echo "%ifndef ASM_OFFSETS_INC"; echo "%define ASM_OFFSETS_INC"; \
	  sed -n 's/^[[:space:]]*\.ascii[[:space:]]*"@asm-const \([A-Za-z0-9_]*\) \$$\([^"]*\)"$$/%define \1 \2/p' $<; \
	  echo "%endif"; } > $@.tmp
	$(Q)mv $@.tmp $@
$(KERNEL_ASM:%.asm=$(BUILD)/%.o): $(ASM_OFFSETS)

$(BUILD)/generated/version.h: FORCE
	$(Q)tools/genversion $@
# Any kernel file may include version.h: it must exist before the first compile.
$(KERNEL_OBJS): | $(BUILD)/generated/version.h

# Names of numbered ABI constants, from the one header that defines them (tools/gennames).
SYSCALL_NR_H := uapi/unistd.h
ERRNO_H      := uapi/errno.h
$(BUILD)/generated/syscall_names.h: $(SYSCALL_NR_H) tools/gennames
	@mkdir -p $(dir $@)
	$(Q)tools/gennames syscall_names __NR_ __NR_ $< > $@
$(BUILD)/generated/errno_names.h: $(ERRNO_H) tools/gennames
	@mkdir -p $(dir $@)
	$(Q)tools/gennames errno_names E "" $< > $@
$(BUILD)/kernel/syscall/syscall.o: $(BUILD)/generated/syscall_names.h
$(BUILD)/kernel/syscall/strace.o: $(BUILD)/generated/errno_names.h
.PHONY: FORCE

$(BUILD)/ksyms_empty.o: tools/gensyms
	@mkdir -p $(dir $@)
	$(Q)tools/gensyms --empty > $(BUILD)/ksyms_empty.S
	$(Q)$(CC) -c -o $@ $(BUILD)/ksyms_empty.S

$(BUILD)/kernel.pass1.elf: $(KERNEL_OBJS) $(BUILD)/ksyms_empty.o linker.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms_empty.o

$(KERNEL): $(BUILD)/kernel.pass1.elf tools/gensyms
	@$(if $(Q),echo "  KSYMS   $@")
	$(Q)nm -n --defined-only $< | tools/gensyms > $(BUILD)/ksyms.S
	$(Q)$(CC) -c -o $(BUILD)/ksyms.o $(BUILD)/ksyms.S
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms.o
	$(Q)tools/gensyms --check $< $@
	$(Q)grub-file --is-x86-multiboot2 $@ || { echo "error: $@ has no valid multiboot2 header"; exit 1; }

# --- the bootable ISO (BIOS + UEFI hybrid, dd-able to a USB stick) ----------
# $(call make_iso,KERNEL,INITRD,STAGING_DIR[,BUILDS]): the recipe writing the
# ISO $@; each BUILD's kernel, $(BUILD)/BUILD/kernel.elf, goes beside the
# default one as boot/kernel-BUILD.elf (grub.cfg's entries for that build),
# without its DWARF (0.5 MB, not 2.5: backtraces use the kernel's own symbol
# table, and gdb reads the ELF in the build tree).
define make_iso
	@$(if $(Q),echo "  ISO     $@")
	$(Q)rm -rf $(3) && mkdir -p $(3)/boot/grub
	$(Q)cp $(1) $(3)/boot/kernel.elf
	$(Q)$(foreach b,$(4),strip --strip-debug -o $(3)/boot/kernel-$(b).elf $(BUILD)/$(b)/kernel.elf &&) true
	$(Q)cp $(2) $(3)/boot/initrd.cpio
	$(Q)sed -e 's|@CMDLINE@|$(BOOT_CMDLINE)|' -e 's|@TIMEOUT@|$(GRUB_TIMEOUT)|' \
		boot/grub.cfg.in > $(3)/boot/grub/grub.cfg
	$(Q)grub-mkrescue -o $@ $(3) \
		--install-modules="normal multiboot2 iso9660 part_msdos part_gpt configfile all_video serial terminal smbios regexp test" \
		--locales= --fonts= --themes= > $(3).log 2>&1 \
		|| { cat $(3).log; exit 1; }
endef
# The default build's ISO, the USB stick, also carries the paravirt
# experiment's baselines: the PARAVIRT=n and PV_CALLEE_SAVE=y kernels (the
# rules below build them in their own trees), 0.5 MB each.
STICK_BUILDS := $(if $(filter y,$(PARAVIRT)),$(if $(filter n,$(PV_CALLEE_SAVE)),nopv pv30))
$(ISO): $(KERNEL) $(STICK_BUILDS:%=$(BUILD)/%/kernel.elf) $(BUILD)/initrd.cpio boot/grub.cfg.in | deps
	$(call make_iso,$(KERNEL),$(BUILD)/initrd.cpio,$(BUILD)/iso,$(STICK_BUILDS))

iso: $(ISO)

deps:
	$(Q)tools/deps

include user/user.mk
include user/vdso/vdso.mk

# --- running ---------------------------------------------------------------
qemu: $(ISO)
	$(Q)tools/qemu-run --iso $(ISO)

qemu-gdb: $(ISO)
	$(Q)tools/qemu-run --iso $(ISO) --gdb

gdb: $(KERNEL)
	gdb -q -ex "target remote localhost:$${GDBPORT:-1234}" $(KERNEL)

print-qemu: $(ISO)
	$(Q)tools/qemu-run --iso $(ISO) --print

# --- tests -------------------------------------------------------------------
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/unit/%)
HOSTCFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter -I. -DHOSTED \
	-fsanitize=address,undefined -fno-omit-frame-pointer -MMD -MP

$(BUILD)/unit/%: tests/unit/%.c tests/unit/unit.h | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $<")
	$(Q)$(HOSTCC) $(HOSTCFLAGS) -o $@ $< -lm

# test_judge includes the in-boot runner, whose headers are found as user programs find them.
$(BUILD)/unit/test_judge: HOSTCFLAGS += -Iuser
$(BUILD)/unit/test_judge: user/bin/experiment.c user/lib/judge.c user/lib/judge.h \
	user/lib/experiment_judge.c user/lib/experiment_judge.h

# test_sysfuzz_report includes the fuzzer's report seal (a user program's source).
$(BUILD)/unit/test_sysfuzz_report: user/suites/sysfuzz/report.c user/suites/sysfuzz/sysfuzz.h

unit-test: $(UNIT_BINS)
	$(Q)tools/run-unit-tests $(UNIT_BINS)

boot-test: $(ISO)
	$(Q)tools/boot-test --iso $(ISO)

# The labs' coding part (docs/labs/): make grade LAB=N [QUICK=1] [V=1] (the result also in
# build/lab/grade.json); make handin LAB=N [ANSWERS=FILE]; tools/lab start N / reset.
.PHONY: grade handin
grade:
	$(Q)$(if $(LAB),tools/lab grade $(if $(QUICK),--quick) $(if $(filter 1,$(V)),--verbose) $(LAB),tools/lab list; echo "make grade LAB=N"; exit 2)

handin:
	$(Q)$(if $(LAB),tools/lab handin $(if $(ANSWERS),--answers $(ANSWERS)) $(LAB),echo "make handin LAB=N [ANSWERS=FILE]"; exit 2)

# docs/knobs.md, the knob reference, from the registry the kernel prints with `help`
.PHONY: knobs-doc
knobs-doc: $(ISO)
	$(Q)tools/knobs-doc --iso $(ISO)

# --- the system-call fuzzer: long storms on rewind (make test runs a short one) ---
# make fuzz [CALLS=10000000] [SEED=random|N] [WORKERS=4] [FUZZ_ROUNDS=20] [FIRST_ROUND=0]: in
# FUZZ_ROUNDS boots with a leak verdict each; FIRST_ROUND with the printed SEED resumes a stopped run.
CALLS       ?= 10000000
SEED        ?= random
WORKERS     ?= 4
FUZZ_ROUNDS ?= 20
FIRST_ROUND ?= 0
.PHONY: fuzz
fuzz: $(ISO)
	$(Q)tools/fuzz-check --calls $(CALLS) --seed $(SEED) --workers $(WORKERS) \
		--rounds $(FUZZ_ROUNDS) --first-round $(FIRST_ROUND) --timeout 7200

# --- Debian's trinity, the Linux system-call fuzzer, on rewind (not in make test) ---
# make trinity [TRINITY_CALLS=1000000] [SEED=random|N] [CPUS=2]: as user nobody, under
# leakcheck with lockdebug and kmemdebug (tools/trinity-check; the package: tools/deps --trinity).
TRINITY_CALLS ?= 1000000
.PHONY: trinity
trinity: $(ISO)
	$(Q)tools/deps --trinity
	$(Q)tools/trinity-check --calls $(TRINITY_CALLS) --seed $(SEED) --timeout 86400

# --- the torture tests, long (make test runs each once; tools/torture-check) ---
# make torture [ROUNDS=3] [REPEAT=10]: boots with lockdebug and kmemdebug, each
# running the in-kernel lock torture and REPEAT rounds of the user-space storms.
ROUNDS ?= 3
REPEAT ?= 10
.PHONY: torture
torture: $(ISO)
	$(Q)tools/torture-check --rounds $(ROUNDS) --repeat $(REPEAT)

# --- host fuzzing of the parsers of outside input (tests/fuzz/) ----------------
# make test replays each target's seeds (gcc, ASan, UBSan); make fuzz-host
# fuzzes each for FUZZ_SECONDS with clang's libFuzzer (tools/deps --fuzz-host).
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_REPLAYS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
FUZZ_SEEDS   := $(BUILD)/fuzz/seeds
FUZZ_SECONDS ?= 60

$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz_host.h | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) -o $@ $< tests/fuzz/replay.c

$(BUILD)/fuzz/libfuzzer_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_host.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CLANG   $@")
	$(Q)clang -std=gnu11 -O1 -g -I. -DHOSTED -fsanitize=fuzzer,address,undefined -o $@ $<

$(FUZZ_SEEDS): $(USER_BINS) tools/fuzz-seeds $(wildcard tests/fuzz/corpus/*/*)
	$(Q)tools/fuzz-seeds $(BUILD) $@
	@touch $@

.PHONY: fuzz-host
fuzz-host: $(FUZZ_SEEDS)
	$(Q)tools/deps --fuzz-host
	$(Q)$(MAKE) -s $(FUZZ_TARGETS:%=$(BUILD)/fuzz/libfuzzer_%)
	$(Q)for t in $(FUZZ_TARGETS); do \
		echo "== fuzz-host: $$t for $(FUZZ_SECONDS) s"; \
		mkdir -p $(BUILD)/fuzz/corpus/$$t && cp -n $(FUZZ_SEEDS)/$$t/* $(BUILD)/fuzz/corpus/$$t/; \
		$(BUILD)/fuzz/libfuzzer_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			$(BUILD)/fuzz/corpus/$$t || exit 1; \
	done

# --- hosted measurement: kernel-side code timed on the host's CPU ---
# (docs/grounds.md, "The hosted ground")
# What every hosted benchmark links of user/lib: the @result lines and the figures for people.
HOSTED_BENCH_LIB := user/lib/bench.c user/lib/procfile.c user/lib/figure.c
HOSTED_BENCH_LIB_DEPS := $(HOSTED_BENCH_LIB) user/lib/bench.h user/lib/procfile.h user/lib/figure.h

# The vDSO's clock code, compiled with the vDSO's flags, in a host program.
HOSTED_BENCH := $(BUILD)/hosted/vclock_bench
.PHONY: hosted-bench
hosted-bench: $(HOSTED_BENCH) # and the programs below, named after their definitions
	$(Q)$(HOSTED_RWSEM) $(ARGS)
	$(Q)$(HOSTED_FSTIME) $(ARGS)
	$(Q)$(HOSTED_PARAVIRT)

$(HOSTED_BENCH): tests/hosted/vclock_bench.c user/vdso/vclock.c kernel/vdso/vvar.h $(HOSTED_BENCH_LIB_DEPS) | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(VDSO_CFLAGS)) -DVCLOCK_HOSTED -c -o $(BUILD)/hosted/vclock.o \
		user/vdso/vclock.c
	$(Q)$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -Werror -I. -Iuser -o $@ tests/hosted/vclock_bench.c \
		$(BUILD)/hosted/vclock.o $(HOSTED_BENCH_LIB)

# locking/'s rwsem and osq, unchanged, with host threads as CPUs (tests/hosted/rwsem_bench.c).
HOSTED_RWSEM := $(BUILD)/hosted/rwsem_bench
HOSTED_LOCKING := locking/rwsem.c locking/rwsem_xadd.c locking/rwsem_bits.c locking/osq.c \
	locking/lockstat.c
$(HOSTED_RWSEM): tests/hosted/rwsem_bench.c $(HOSTED_LOCKING) $(wildcard locking/*.h) $(HOSTED_BENCH_LIB_DEPS) | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -I. -Iuser -DHOSTED \
		-pthread -o $@ tests/hosted/rwsem_bench.c $(HOSTED_LOCKING) $(HOSTED_BENCH_LIB)

# fs/ and mm/uaccess.c, unchanged, over fs_host.h's page cache: fstime's pattern per copy_nocache
# policy on this CPU's caches (tests/hosted/fstime_host.c). All of fs/ in one unit at -O2 gives
# gcc 12 false warnings (getname's out-parameter "maybe uninitialized", wait entries "dangling").
HOSTED_FSTIME := $(BUILD)/hosted/fstime_host
$(HOSTED_FSTIME): tests/hosted/fstime_host.c tests/unit/fs_host.h tests/unit/unit.h $(wildcard fs/*.c fs/*.h) \
		mm/uaccess.c mm/uaccess.h mm/extable.h \
		$(HOSTED_BENCH_LIB_DEPS) | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -I. -Iuser -DHOSTED \
		-Wno-maybe-uninitialized -Wno-dangling-pointer -o $@ tests/hosted/fstime_host.c $(HOSTED_BENCH_LIB)

# mm/paging.c with the paravirt boundary, three times: CONFIG_PARAVIRT
# (2.6.25's sites), CONFIG_PARAVIRT with CONFIG_PV_CALLEE_SAVE (2.6.30's;
# its table pv_ops30) and neither, each copy's symbols local but for its
# entry point (tests/hosted/pgtable_work.c), its sites in a section the host
# linker brackets with __start_/__stop_.
HOSTED_PARAVIRT := $(BUILD)/hosted/paravirt_bench
HOSTED_PV_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -I. -Iuser \
	-DHOSTED -DCONFIG_PARAVIRT -mno-red-zone -fno-pie
HOSTED_PV_COPY_native := $(filter-out -DCONFIG_PARAVIRT,$(HOSTED_PV_CFLAGS))
HOSTED_PV_COPY_pv := $(HOSTED_PV_CFLAGS)
HOSTED_PV_COPY_pv30 := $(HOSTED_PV_CFLAGS) -DCONFIG_PV_CALLEE_SAVE -Dpv_ops=pv_ops30
$(BUILD)/hosted/pgtable_work_%.o: tests/hosted/pgtable_work.c mm/paging.c $(wildcard mm/*.h) \
		kernel/x86/paravirt.h kernel/x86/paravirt_types.h kernel/x86/native.h | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(HOSTED_PV_COPY_$*) -DPGTABLE_WORK=pgtable_work_$* -fvisibility=hidden \
		-c -o $@.tmp.o $<
	$(Q)$(LD) -r -o $@ $@.tmp.o && rm -f $@.tmp.o
	$(Q)objcopy --localize-hidden --rename-section .parainstructions=parainstructions_$* $@
HOSTED_PV_COPIES := $(BUILD)/hosted/pgtable_work_pv.o $(BUILD)/hosted/pgtable_work_pv30.o \
	$(BUILD)/hosted/pgtable_work_native.o
$(HOSTED_PARAVIRT): tests/hosted/paravirt_bench.c kernel/x86/paravirt_patch.c \
		kernel/x86/paravirt_patch.h $(HOSTED_PV_COPIES) $(HOSTED_BENCH_LIB_DEPS) | deps
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(HOSTED_PV_CFLAGS) -no-pie -o $@ tests/hosted/paravirt_bench.c \
		$(HOSTED_PV_COPIES) $(HOSTED_BENCH_LIB)
# Here, not above: a rule's prerequisites are expanded where make reads them.
hosted-bench: $(HOSTED_RWSEM) $(HOSTED_FSTIME) $(HOSTED_PARAVIRT)

# The second builds' kernels, each made by a make of its own in its own tree
# (FORCE: that make knows whether its sources changed; the file's time tells
# this one whether the ISO must be made again).
.PHONY: nopv-kernel pv30-kernel
nopv-kernel: $(if $(filter n,$(PARAVIRT)),,$(BUILD)/nopv/kernel.elf)
pv30-kernel: $(BUILD)/pv30/kernel.elf
$(BUILD)/nopv/kernel.elf: FORCE
	$(Q)$(MAKE) -s PARAVIRT=n BUILD=$(BUILD)/nopv $@
$(BUILD)/pv30/kernel.elf: FORCE
	$(Q)$(MAKE) -s PV_CALLEE_SAVE=y BUILD=$(BUILD)/pv30 $@

# make test boots the PV_CALLEE_SAVE=y (2.6.30) and PARAVIRT=n kernels too
# (tools/test-all, tools/icount-check): each its own ISO, this build's initrd.
PV30_ISO := $(BUILD)/pv30/rewind.iso
NOPV_ISO := $(BUILD)/nopv/rewind.iso
$(BUILD)/pv30/rewind.iso $(BUILD)/nopv/rewind.iso: $(BUILD)/%/rewind.iso: $(BUILD)/%/kernel.elf \
		$(BUILD)/initrd.cpio boot/grub.cfg.in | deps
	$(call make_iso,$(BUILD)/$*/kernel.elf,$(BUILD)/initrd.cpio,$(BUILD)/$*/iso)
# The default build's second ISOs, which the paravirt experiment boots too
# (experiments/paravirt.toml's [[build]] trees).
SECOND_ISOS := $(if $(filter y,$(PARAVIRT)),$(if $(filter n,$(PV_CALLEE_SAVE)),$(PV30_ISO) $(NOPV_ISO)))

# The experiments, headless, into results/<timestamp>/ (tools/reproduce --help);
# options through ARGS, e.g. make reproduce ARGS="--only vsyscall --quick --with-linux".
# Here, below the second ISOs: --no-build boots only what this make has built.
.PHONY: reproduce
reproduce: $(ISO) $(SECOND_ISOS)
	$(Q)tools/reproduce --build $(BUILD) --no-build $(ARGS)

# --- LTP's system-call tests on rewind and on Linux 6.1, same VM (not in make test) ---
# make ltp: tools/ltp --make, which fetches nothing: without an LTP build in /tmp/ltp it says
# how to make one (tools/ltp --build) and skips; results in /tmp/ltp-results/ (docs/ltp.md).
.PHONY: ltp
ltp: $(ISO)
	$(Q)tools/ltp --make

clean:
	rm -rf $(BUILD)

help:
	@sed -n '2,12p' Makefile | sed 's/^# \{0,1\}//'
	@echo "Variables: CPUS= MEM= ACCEL=kvm|tcg|icount CMDLINE=\"...\" UEFI=1 QEMUEXTRA=\"...\" V=1 PARAVIRT=y|n PV_CALLEE_SAVE=n|y"
	@echo "           BOOT_CMDLINE=\"...\" (baked into the ISO) GRUB_TIMEOUT=N (menu delay on real machines)"
	@echo "Targets:   all iso qemu qemu-gdb gdb print-qemu test unit-test boot-test deps clean knobs-doc"
	@echo "           hosted-bench (kernel code timed on this host's CPU: build/hosted/rwsem_bench, fstime_host, paravirt_bench)"
	@echo "           reproduce [ARGS=\"--only NAME --quick --repeat N --with-linux\"] (results/<timestamp>/)"
	@echo "           grade LAB=N [QUICK=1] [V=1], handin LAB=N (docs/labs/: tools/lab start N, tools/lab reset)"
	@echo "           ltp (LTP's system-call tests on rewind and Linux, docs/ltp.md; tools/ltp --build first)"

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# --- make test: last, so that every list above is defined when its prerequisites are read ---
# The hosted benchmarks are built (not run) so that they cannot rot; the
# fuzz targets replay their seeds inside tools/test-all.
# The default build's tests also boot the PV_CALLEE_SAVE=y and PARAVIRT=n
# kernels (tools/test-all, tools/icount-check).
test: $(ISO) $(UNIT_BINS) $(HOSTED_BENCH) $(HOSTED_RWSEM) $(HOSTED_FSTIME) $(HOSTED_PARAVIRT) $(FUZZ_REPLAYS) \
		$(FUZZ_SEEDS) nopv-kernel $(SECOND_ISOS)
	$(Q)tools/test-all --iso $(ISO) $(UNIT_BINS)
