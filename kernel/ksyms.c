/*
 * ksyms.c - binary search in the generated symbol table; see ksyms.h.
 */
#include "kernel/ksyms.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

const char *
ksym_lookup_in(const struct ksym_table *t, u64 addr, u64 *offset, u64 *size)
{
	if (!t->count || addr < t->addrs[0] || addr >= t->text_end)
		return NULL;

	/* The last symbol starting at or below addr. */
	u64 lo = 0, hi = t->count;
	while (hi - lo > 1) {
		u64 mid = lo + (hi - lo) / 2;
		if (t->addrs[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	u64 next = lo + 1 < t->count ? t->addrs[lo + 1] : t->text_end;
	if (offset)
		*offset = addr - t->addrs[lo];
	if (size)
		*size = next - t->addrs[lo];
	return t->names + t->name_offsets[lo];
}

int
ksym_format(u64 addr, char *buf, size_t size)
{
	u64 off, len;
	const char *name = ksym_lookup(addr, &off, &len);

	if (!name)
		return ksnprintf(buf, size, "0x%lx", addr);
	return ksnprintf(buf, size, "%s+0x%lx/0x%lx", name, off, len);
}

#ifndef HOSTED
extern const u64 ksyms_count;
extern const u64 ksyms_addrs[];
extern const u32 ksyms_name_offsets[];
extern const char ksyms_names[];
extern const char _etext[];

static const struct ksym_table *
kernel_table(void)
{
	static struct ksym_table t;

	if (!t.addrs) {
		t.count = ksyms_count;
		t.name_offsets = ksyms_name_offsets;
		t.names = ksyms_names;
		t.text_end = (u64)_etext;
		WRITE_ONCE(t.addrs, ksyms_addrs);
	}
	return &t;
}

const char *
ksym_lookup(u64 addr, u64 *offset, u64 *size)
{
	return ksym_lookup_in(kernel_table(), addr, offset, size);
}

u64
ksym_address(const char *name)
{
	const struct ksym_table *t = kernel_table();

	for (u64 i = 0; i < t->count; i++)
		if (strcmp(t->names + t->name_offsets[i], name) == 0)
			return t->addrs[i];
	return 0;
}
#endif
