/*
 * boot.h - what the rest of the kernel may ask about how it was booted.
 */
#ifndef REWIND_BOOT_H
#define REWIND_BOOT_H

#include "kernel/multiboot2.h"

extern struct boot_info boot_info;

/* The full command line: the loader's, then the one QEMU passed by fw_cfg. */
const char *boot_cmdline(void);
/* `ktest`: run the in-kernel self-tests and end QEMU with their verdict. */
bool boot_ktest_mode(void);

#endif
