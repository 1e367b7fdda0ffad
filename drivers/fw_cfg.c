/*
 * fw_cfg.c - reading a named file from QEMU's fw_cfg; see fw_cfg.h.
 *
 * Protocol: write a 16-bit selector to port 0x510, then read the item's
 * bytes one at a time from 0x511. Selector 0 holds "QEMU" when the device
 * exists; selector 0x19 is the directory: a big-endian u32 count, then
 * entries of { be32 size, be16 select, u16 reserved, char name[56] }.
 *
 * A byte per port read costs an exit to QEMU each: a 256 MiB --add took
 * close to a minute. When selector 1 (FW_CFG_ID) has its DMA bit, whole
 * files are read the DMA way instead (QEMU's fw_cfg specification,
 * https://www.qemu.org/docs/master/specs/fw_cfg.html): a
 * big-endian descriptor { control, length, address } in guest memory, whose
 * physical address is written big-endian to port 0x514 (high half) and
 * 0x518 (low half, which starts the transfer); QEMU copies up to length
 * bytes of the item to address and clears control, or leaves its error bit.
 * The selector rides in control's high 16 bits with the SELECT bit, and
 * each transfer goes on where the last one stopped, so a buffer made of
 * scattered pages (vmalloc) is filled run of contiguous pages by run.
 * The fw_cfg_dma knob turns this off, to keep the port path tested.
 */
#include "drivers/fw_cfg.h"
#include "kernel/knobs.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/x86/x86.h"
#include "mm/paging.h"

#define FW_CFG_SELECTOR	     0x510
#define FW_CFG_DATA	     0x511
#define FW_CFG_DMA_ADDR_HIGH 0x514
#define FW_CFG_DMA_ADDR_LOW  0x518
#define FW_CFG_SIGNATURE     0x0000
#define FW_CFG_ID	     0x0001
#define FW_CFG_FILE_DIR	     0x0019

#define FW_CFG_ID_DMA	 (1u << 1)
#define DMA_CTL_ERROR	 0x01
#define DMA_CTL_READ	 0x02
#define DMA_CTL_SELECT	 0x08
#define DMA_MAX_TRANSFER (1u << 30) /* length is 32 bits; any large bound will do */

KNOB_BOOL(fw_cfg_dma, "fw_cfg_dma", 1, false,
	  "read fw_cfg's large files (--add) by DMA if QEMU offers it (0: a byte per port read)");

/* The device's view of a transfer: all fields big-endian. */
struct fw_cfg_dma_access {
	u32 control;
	u32 length;
	u64 address;
};

static void
read_bytes(void *dst, size_t n)
{
	u8 *p = dst;

	for (size_t i = 0; i < n; i++)
		p[i] = inb(FW_CFG_DATA);
}

static u32
be32(const u8 *p)
{
	return ((u32)p[0] << 24) | ((u32)p[1] << 16) | ((u32)p[2] << 8) | p[3];
}

static u32
le32(const u8 *p)
{
	return ((u32)p[3] << 24) | ((u32)p[2] << 16) | ((u32)p[1] << 8) | p[0];
}

static bool
fw_cfg_present(void)
{
	char sig[4];

	if (!(cpuid(1, 0).ecx & (1u << 31))) /* bare metal: leave those ports alone */
		return false;
	outw(FW_CFG_SELECTOR, FW_CFG_SIGNATURE);
	read_bytes(sig, 4);
	return memcmp(sig, "QEMU", 4) == 0;
}

/* Looks a file up in the directory: its selector and length, or false. */
static bool
find_file(const char *name, u16 *select, u32 *len)
{
	u8 count_be[4];

	if (!fw_cfg_present())
		return false;
	outw(FW_CFG_SELECTOR, FW_CFG_FILE_DIR);
	read_bytes(count_be, 4);
	u32 count = be32(count_be);
	for (u32 i = 0; i < count && i < 4096; i++) {
		u8 entry[64];
		read_bytes(entry, sizeof(entry));
		entry[63] = '\0';
		if (strcmp((const char *)entry + 8, name) == 0) {
			*len = be32(entry);
			*select = (u16)((entry[4] << 8) | entry[5]);
			return true;
		}
	}
	return false;
}

/* Whether files may be read by DMA: the device offers it and the knob allows it. */
static bool
dma_usable(void)
{
	u8 id[4];

	if (!READ_ONCE(fw_cfg_dma))
		return false;
	outw(FW_CFG_SELECTOR, FW_CFG_ID);
	read_bytes(id, 4);
	return le32(id) & FW_CFG_ID_DMA;
}

/* One transfer of len bytes of the item to phys; false if QEMU reports an error. */
static bool
dma_transfer(u32 control, phys_addr_t phys, u32 len)
{
	/* 16-byte aligned: never straddles a page, so one physical address covers it */
	struct fw_cfg_dma_access access __aligned(16) = {
		.control = __builtin_bswap32(control),
		.length = __builtin_bswap32(len),
		.address = __builtin_bswap64(phys),
	};
	phys_addr_t at = kernel_virt_to_phys(&access);
	u32 status;

	barrier(); /* the descriptor is in memory before QEMU is told where */
	outl(FW_CFG_DMA_ADDR_HIGH, __builtin_bswap32((u32)(at >> 32)));
	outl(FW_CFG_DMA_ADDR_LOW, __builtin_bswap32((u32)at));
	/* QEMU finishes during the outl; the specification allows it later */
	while ((status = __builtin_bswap32(READ_ONCE(access.control))) & ~DMA_CTL_ERROR)
		cpu_relax();
	barrier(); /* and the data is read only after that */
	return !(status & DMA_CTL_ERROR);
}

/* The length of the physically contiguous run of buf's pages starting at buf, at most n. */
static size_t
contiguous_run(const u8 *buf, size_t n)
{
	phys_addr_t start = kernel_virt_to_phys(buf);
	size_t run = MIN(n, PAGE_SIZE - (start & (PAGE_SIZE - 1)));

	while (run < n && run < DMA_MAX_TRANSFER && kernel_virt_to_phys(buf + run) == start + run)
		run += MIN(n - run, PAGE_SIZE);
	return MIN(run, (size_t)DMA_MAX_TRANSFER);
}

/* Reads n bytes of item select into buf (any mapped kernel memory) by DMA. */
static bool
read_dma(u16 select, void *buf, size_t n)
{
	u8 *p = buf;
	u32 control = ((u32)select << 16) | DMA_CTL_SELECT | DMA_CTL_READ;

	do {
		size_t run = contiguous_run(p, n);
		if (!dma_transfer(control, kernel_virt_to_phys(p), (u32)run))
			return false;
		control = DMA_CTL_READ; /* on from where that one stopped */
		p += run;
		n -= run;
	} while (n);
	return true;
}

long
fw_cfg_file_size(const char *name)
{
	u16 select;
	u32 len;

	return find_file(name, &select, &len) ? (long)len : -1;
}

/* Copies up to size bytes of the named file, by DMA if by_dma and QEMU can. */
static long
read_named(const char *name, void *buf, size_t size, bool by_dma)
{
	u16 select;
	u32 len;

	if (!find_file(name, &select, &len))
		return -1;
	size_t n = MIN((size_t)len, size);
	const char *how = "ports";
	if (n && by_dma && dma_usable() && read_dma(select, buf, n)) {
		how = "DMA";
	} else {
		outw(FW_CFG_SELECTOR, select); /* no DMA, or it failed: the same bytes by ports */
		read_bytes(buf, n);
	}
	if (by_dma) /* which way a large file came (the early command line is not worth a line) */
		pr_info("fw_cfg: %s: %lu bytes by %s\n", name, (unsigned long)n, how);
	return (long)n;
}

long
fw_cfg_read_blob(const char *name, void *buf, size_t size)
{
	return read_named(name, buf, size, true);
}

int
fw_cfg_read_file(const char *name, char *buf, size_t size)
{
	if (!size)
		return -1;
	/* by ports: the command line is read before paging (and the knob) is set up */
	long n = read_named(name, buf, size - 1, false);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}
