/*
 * ksyms.h - kernel symbol lookup (address -> function name + offset), for
 * backtraces and fault reports. The table is generated from the first link
 * by tools/gensyms and linked into the second (.ksyms section).
 */
#ifndef REWIND_KSYMS_H
#define REWIND_KSYMS_H

#include "kernel/lib/types.h"

struct ksym_table {
	u64 count;
	const u64 *addrs;	 /* sorted ascending */
	const u32 *name_offsets; /* into names */
	const char *names;
	u64 text_end; /* addresses at or past it are not code */
};

/*
 * The symbol containing addr: its name, with *offset from its start and
 * *size up to the next symbol. NULL when addr is outside the table's code.
 */
const char *ksym_lookup_in(const struct ksym_table *t, u64 addr, u64 *offset, u64 *size);
const char *ksym_lookup(u64 addr, u64 *offset, u64 *size);
/* "name+0x1a/0x80", or "0x..." when unknown. */
int ksym_format(u64 addr, char *buf, size_t size);
/* Start address of a named symbol, or 0. */
u64 ksym_address(const char *name);

#endif
