/*
 * fw_cfg.h - QEMU's firmware configuration device (ports 0x510/0x511).
 *
 * rewind reads one file from it, opt/rewind/cmdline, which tools/qemu-run
 * fills from CMDLINE=: so one ISO serves every test and experiment without
 * being rebuilt. Only probed when CPUID says a hypervisor is present.
 */
#ifndef REWIND_FW_CFG_H
#define REWIND_FW_CFG_H

#include "kernel/types.h"

/* Copies the named file (NUL-terminated, cut to size - 1); -1 if absent. */
int fw_cfg_read_file(const char *name, char *buf, size_t size);

#endif
