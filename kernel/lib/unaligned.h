/*
 * unaligned.h - reading little-endian integers at any byte address, for
 * parsers of outside input (ELF headers, multiboot2 tags) whose fields
 * need not be aligned. memcpy keeps the compiler from assuming alignment;
 * it becomes one load.
 */
#ifndef REWIND_UNALIGNED_H
#define REWIND_UNALIGNED_H

#include "kernel/lib/string.h"
#include "kernel/lib/types.h"

static inline u16
rd16(const u8 *p)
{
	u16 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline u32
rd32(const u8 *p)
{
	u32 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline u64
rd64(const u8 *p)
{
	u64 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

#endif
