/*
 * initrd_fw_cfg.c - the extra initrd archive QEMU can pass through fw_cfg
 * (opt/rewind/initrd): how tools/rewind-run puts a host binary into rewind
 * without rebuilding the ISO. Unpacked over the root after the boot modules.
 * Kept apart from fs/initrd.c, which needs no hardware and is unit-tested.
 */
#include "fs/fs.h"
#include "drivers/fw_cfg.h"
#include "kernel/printk.h"
#include "mm/vmap.h"

#define FW_CFG_INITRD "opt/rewind/initrd"

void
initrd_load_fw_cfg(void)
{
	long size = fw_cfg_file_size(FW_CFG_INITRD);

	if (size <= 0)
		return;
	void *buf = vmalloc((size_t)size);
	if (!buf) {
		pr_err("initrd: no memory for the %ld-byte fw_cfg archive\n", size);
		return;
	}
	if (fw_cfg_read_blob(FW_CFG_INITRD, buf, (size_t)size) == size)
		initrd_unpack("fw_cfg", buf, (size_t)size);
	else
		pr_err("initrd: the fw_cfg archive could not be read whole\n");
	vfree(buf, (size_t)size);
}
