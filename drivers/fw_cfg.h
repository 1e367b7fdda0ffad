/*
 * fw_cfg.h - QEMU's firmware configuration device (ports 0x510/0x511).
 *
 * rewind reads two files from it, both filled by tools/qemu-run, so that
 * one ISO serves every test and experiment without being rebuilt:
 * opt/rewind/cmdline (CMDLINE=) and opt/rewind/initrd (a cpio archive
 * unpacked over the root, how tools/rewind-run brings a host binary in).
 * Only probed when CPUID says a hypervisor is present. Large files are read
 * in order, in pieces, by the device's DMA interface where it has one
 * (fw_cfg_dma knob), so that they need not fit in memory whole.
 */
#ifndef REWIND_FW_CFG_H
#define REWIND_FW_CFG_H

#include "kernel/lib/types.h"

/*
 * Copies the named file as text (NUL-terminated, cut to size - 1); -1 if
 * absent. By ports: usable before paging_init.
 */
int fw_cfg_read_file(const char *name, char *buf, size_t size);
/* A file read in order, piece by piece (fw_cfg_open, then fw_cfg_read_next). */
struct fw_cfg_file {
	u16 select;
	u32 size;
	bool by_dma;   /* QEMU offers it and the fw_cfg_dma knob allows it */
	bool selected; /* a read has begun: the next goes on where it stopped */
};

/* Finds the named file and says (at info level) how it will be read; false if absent. */
bool fw_cfg_open(const char *name, struct fw_cfg_file *f);
/*
 * Copies the next n bytes of f into buf (any mapped kernel memory), by DMA
 * when it can: false if the device reports an error. After paging_init.
 */
bool fw_cfg_read_next(struct fw_cfg_file *f, void *buf, size_t n);

#endif
