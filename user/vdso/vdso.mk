# user/vdso/vdso.mk - builds the vDSO and the legacy vsyscall page image
# from the one clock-reading source, user/vdso/vclock.c.
#
# Included by the top Makefile (which defines BUILD, Q, LD and the deps
# target). Compiled with the host gcc, not musl-gcc: the vDSO uses no libc.
#
#   $(BUILD)/vdso/vdso.so               the vDSO (mapped into every process)
#   $(BUILD)/vdso/vsyscall_legacy.bin   one page of code for vsyscall=legacy
#
# Both land in the kernel image through kernel/vdso/vdso_image.asm (incbin).
# The build fails if the vDSO carries a relocation, a writable segment or
# no SysV hash table (musl finds vDSO symbols only through DT_HASH), or if
# the legacy page is not exactly one page.

VDSO_OUT := $(BUILD)/vdso
VDSO_SO := $(VDSO_OUT)/vdso.so
VSYSCALL_LEGACY_BIN := $(VDSO_OUT)/vsyscall_legacy.bin

VDSO_CFLAGS := -std=gnu11 -O2 -g0 -Wall -Wextra -Werror -Wno-unused-parameter -I. -D__VDSO__ \
	-fPIC -ffreestanding -fno-builtin -fno-stack-protector -fno-asynchronous-unwind-tables \
	-fno-unwind-tables -fcf-protection=none -fvisibility=hidden -ffunction-sections \
	-mcmodel=small -mgeneral-regs-only -MMD -MP
VDSO_LDFLAGS := -shared -nostdlib --hash-style=sysv -soname linux-vdso.so.1 -Bsymbolic \
	--no-undefined -z max-page-size=4096 -z noexecstack --build-id=none \
	--version-script user/vdso/vdso.map -T user/vdso/vdso.lds

$(VDSO_OUT)/vclock.o: user/vdso/vclock.c kernel/vdso/vvar.h | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  VDSOCC  $<")
	$(Q)$(HOSTCC) $(VDSO_CFLAGS) -c -o $@ $<

$(VDSO_SO): $(VDSO_OUT)/vclock.o user/vdso/vdso.lds user/vdso/vdso.map
	@$(if $(Q),echo "  VDSO    $@")
	$(Q)$(LD) $(VDSO_LDFLAGS) -o $@ $(VDSO_OUT)/vclock.o
	$(Q)readelf -rW $@ | grep -q 'There are no relocations' || \
		{ echo "error: $@ has relocations:"; readelf -rW $@; rm -f $@; exit 1; }
	$(Q)readelf -SW $@ | grep -q ' \.hash ' || { echo "error: $@ has no DT_HASH table"; rm -f $@; exit 1; }
	$(Q)! readelf -lW $@ | grep -E '^ +LOAD' | grep -qv ' R E ' || \
		{ echo "error: $@ has a segment that is not read+execute:"; readelf -lW $@; rm -f $@; exit 1; }

$(VSYSCALL_LEGACY_BIN): $(VDSO_OUT)/vclock.o user/vdso/vsyscall_legacy.lds
	@$(if $(Q),echo "  VSYSCALL $@")
	$(Q)$(LD) -static -nostdlib -z max-page-size=4096 -z noexecstack --build-id=none \
		-T user/vdso/vsyscall_legacy.lds -o $(VDSO_OUT)/vsyscall_legacy.elf $(VDSO_OUT)/vclock.o
	$(Q)! readelf -SW $(VDSO_OUT)/vsyscall_legacy.elf | grep -E ' \.(got|plt|data|bss)' || \
		{ echo "error: the legacy vsyscall page needs data or a GOT"; exit 1; }
	$(Q)objcopy -O binary -j .text $(VDSO_OUT)/vsyscall_legacy.elf $@
	$(Q)test "$$(stat -c %s $@)" = 4096 || { echo "error: $@ is not one page"; rm -f $@; exit 1; }

# The kernel embeds both files; NASM finds them on its include path.
$(BUILD)/kernel/vdso/vdso_image.o: $(VDSO_SO) $(VSYSCALL_LEGACY_BIN)
$(BUILD)/kernel/vdso/vdso_image.o: NASM += -I$(VDSO_OUT)/
