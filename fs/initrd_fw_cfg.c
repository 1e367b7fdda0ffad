/*
 * initrd_fw_cfg.c - the extra initrd archive QEMU can pass through fw_cfg
 * (opt/rewind/initrd): how tools/rewind-run puts a host binary into rewind
 * without rebuilding the ISO. Unpacked over the root after the boot modules.
 * Kept apart from fs/initrd.c, which needs no hardware and is unit-tested.
 *
 * The archive streams: it is read from the device in order through a
 * 1 MiB bounce buffer, and fs/initrd.c copies each file's data from there
 * into its page-cache pages, so however big the archive, the memory it
 * needs besides the files it makes is that buffer (a byte-per-port read or
 * a DMA transfer cannot aim at the page-cache pages of a file not yet made).
 */
#include "fs/cpio.h"
#include "fs/fs.h"
#include "drivers/fw_cfg.h"
#include "kernel/lib/string.h"
#include "kernel/printk.h"
#include "mm/vmap.h"

#define FW_CFG_INITRD "opt/rewind/initrd"
#define BOUNCE_SIZE   (1u << 20)

struct fw_cfg_source {
	struct cpio_source src;
	struct fw_cfg_file file;
	u8 *bounce;
	size_t have, used; /* bytes in the bounce buffer; of those, handed on */
	size_t fetched;	   /* bytes of the file read from the device so far */
};

/* Fills the bounce buffer with the file's next bytes. */
static bool
refill(struct fw_cfg_source *s)
{
	size_t n = MIN((size_t)BOUNCE_SIZE, (size_t)s->file.size - s->fetched);

	if (!n || !fw_cfg_read_next(&s->file, s->bounce, n))
		return false;
	s->fetched += n;
	s->have = n;
	s->used = 0;
	return true;
}

/* Hands on what the bounce buffer holds, up to n bytes, refilling it when empty. */
static size_t
bounce_read(struct cpio_source *src, void *buf, size_t n)
{
	struct fw_cfg_source *s = (struct fw_cfg_source *)src;

	if (s->used == s->have && !refill(s))
		return 0;
	size_t chunk = MIN(n, s->have - s->used);
	memcpy(buf, s->bounce + s->used, chunk);
	s->used += chunk;
	return chunk;
}

void
initrd_load_fw_cfg(void)
{
	struct fw_cfg_source s = { .src = { .read = bounce_read } };

	if (!fw_cfg_open(FW_CFG_INITRD, &s.file) || !s.file.size)
		return;
	s.bounce = vmalloc(BOUNCE_SIZE);
	if (!s.bounce) {
		pr_err("initrd: no memory for the fw_cfg archive's buffer\n");
		return;
	}
	s.src.size = s.file.size;
	initrd_unpack_source("fw_cfg", &s.src);
	vfree(s.bounce, BOUNCE_SIZE);
}
