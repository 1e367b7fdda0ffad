/*
 * fw_cfg.c - reading a named file from QEMU's fw_cfg; see fw_cfg.h.
 *
 * Protocol: write a 16-bit selector to port 0x510, then read the item's
 * bytes one at a time from 0x511. Selector 0 holds "QEMU" when the device
 * exists; selector 0x19 is the directory: a big-endian u32 count, then
 * entries of { be32 size, be16 select, u16 reserved, char name[56] }.
 */
#include "drivers/fw_cfg.h"
#include "kernel/lib/string.h"
#include "kernel/x86/x86.h"

#define FW_CFG_SELECTOR	 0x510
#define FW_CFG_DATA	 0x511
#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_FILE_DIR	 0x0019

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

long
fw_cfg_file_size(const char *name)
{
	u16 select;
	u32 len;

	return find_file(name, &select, &len) ? (long)len : -1;
}

long
fw_cfg_read_blob(const char *name, void *buf, size_t size)
{
	u16 select;
	u32 len;

	if (!find_file(name, &select, &len))
		return -1;
	size_t n = MIN((size_t)len, size);
	outw(FW_CFG_SELECTOR, select);
	read_bytes(buf, n);
	return (long)n;
}

int
fw_cfg_read_file(const char *name, char *buf, size_t size)
{
	if (!size)
		return -1;
	long n = fw_cfg_read_blob(name, buf, size - 1);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}
