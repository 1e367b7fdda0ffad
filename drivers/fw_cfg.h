/*
 * fw_cfg.h - QEMU's firmware configuration device (ports 0x510/0x511).
 *
 * rewind reads two files from it, both filled by tools/qemu-run, so that
 * one ISO serves every test and experiment without being rebuilt:
 * opt/rewind/cmdline (CMDLINE=) and opt/rewind/initrd (a cpio archive
 * unpacked over the root, how tools/rewind-run brings a host binary in).
 * Only probed when CPUID says a hypervisor is present. Large files are read
 * by the device's DMA interface where it has one (fw_cfg_dma knob).
 */
#ifndef REWIND_FW_CFG_H
#define REWIND_FW_CFG_H

#include "kernel/lib/types.h"

/*
 * Copies the named file as text (NUL-terminated, cut to size - 1); -1 if
 * absent. By ports: usable before paging_init.
 */
int fw_cfg_read_file(const char *name, char *buf, size_t size);
/* The named file's length, or -1 if absent. */
long fw_cfg_file_size(const char *name);
/*
 * Copies up to size bytes of the named file into any mapped kernel memory
 * (by DMA when QEMU offers it): the count, or -1 if absent. After paging_init.
 */
long fw_cfg_read_blob(const char *name, void *buf, size_t size);

#endif
