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
 * each transfer goes on where the last one stopped (as port reads do), so
 * a file is read in order in pieces (fw_cfg_read_next: --add's archive
 * streams through a small buffer), and a buffer made of scattered pages
 * (vmalloc) is filled run of contiguous pages by run. Nothing else may
 * use the device while a file is being read that way: at boot, nothing does.
 * The fw_cfg_dma knob turns DMA off, to keep the port path tested.
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

/* Whether the device offers DMA. */
static bool
dma_usable(void)
{
	u8 id[4];

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

/* Reads the item's next n bytes into buf (any mapped kernel memory) by DMA. */
static bool
read_dma(struct fw_cfg_file *f, void *buf, size_t n)
{
	u8 *p = buf;

	while (n) {
		u32 control = DMA_CTL_READ;
		if (!f->selected) /* the first transfer selects; the rest go on where it stopped */
			control |= ((u32)f->select << 16) | DMA_CTL_SELECT;
		size_t run = contiguous_run(p, n);
		if (!dma_transfer(control, kernel_virt_to_phys(p), (u32)run))
			return false;
		f->selected = true;
		p += run;
		n -= run;
	}
	return true;
}

bool
fw_cfg_open(const char *name, struct fw_cfg_file *f)
{
	if (!find_file(name, &f->select, &f->size))
		return false;
	f->by_dma = READ_ONCE(fw_cfg_dma) && dma_usable();
	f->selected = false;
	pr_info("fw_cfg: %s: %lu bytes by %s\n", name, (unsigned long)f->size,
		f->by_dma ? "DMA" : "ports");
	return true;
}

bool
fw_cfg_read_next(struct fw_cfg_file *f, void *buf, size_t n)
{
	if (f->by_dma)
		return read_dma(f, buf, n);
	if (!f->selected)
		outw(FW_CFG_SELECTOR, f->select);
	f->selected = true;
	read_bytes(buf, n); /* the port goes on where the last read stopped */
	return true;
}

int
fw_cfg_read_file(const char *name, char *buf, size_t size)
{
	u16 select;
	u32 len;

	if (!size || !find_file(name, &select, &len))
		return -1;
	/* by ports: the command line is read before paging (and the knob) is set up */
	size_t n = MIN((size_t)len, size - 1);
	outw(FW_CFG_SELECTOR, select);
	read_bytes(buf, n);
	buf[n] = '\0';
	return (int)n;
}
