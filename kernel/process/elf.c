/*
 * elf.c - ELF64 header validation; see elf.h. Offsets and sizes follow the
 * System V gABI and the x86-64 psABI; every field is checked against the
 * buffer and the file size before it is used.
 */
#include "kernel/process/elf.h"
#include "kernel/lib/unaligned.h"
#include "uapi/errno.h"
#include "kernel/lib/string.h"
#include "mm/layout.h"

#define ET_EXEC	     2
#define ET_DYN	     3
#define EM_X86_64    62
#define PT_LOAD	     1
#define PT_INTERP    3
#define PT_PHDR	     6
#define PT_GNU_STACK 0x6474e551
#define PHDR_SIZE    56
#define INTERP_MAX   4096 /* PATH_MAX: Linux's bound on PT_INTERP's size */

static int
fail(const char **why, const char *msg)
{
	*why = msg;
	return -ENOEXEC;
}

static int
check_ident(const u8 *b, size_t len, const char **why)
{
	if (len < ELF_EHDR_SIZE)
		return fail(why, "file shorter than an ELF header");
	if (memcmp(b, "\177ELF", 4) != 0)
		return fail(why, "not an ELF file (bad magic)");
	if (b[4] != 2)
		return fail(why, "not a 64-bit ELF file");
	if (b[5] != 1)
		return fail(why, "not little-endian");
	if (b[6] != 1)
		return fail(why, "unknown ELF version");
	return 0;
}

static int
parse_segment(const u8 *ph, u64 file_size, struct elf_image *img, const char **why)
{
	struct elf_segment s = {
		.flags = rd32(ph + 4),
		.offset = rd64(ph + 8),
		.vaddr = rd64(ph + 16),
		.filesz = rd64(ph + 32),
		.memsz = rd64(ph + 40),
	};

	if (s.filesz > s.memsz)
		return fail(why, "segment's file size exceeds its memory size");
	if (s.offset > file_size || s.filesz > file_size - s.offset)
		return fail(why, "segment extends past the end of the file");
	if (s.memsz == 0)
		return 0;
	if (s.vaddr >= USER_TOP || s.memsz > USER_TOP - s.vaddr)
		return fail(why, "segment lies outside user space");
	if ((s.vaddr - s.offset) % PAGE_SIZE)
		return fail(why, "segment's address and file offset disagree modulo the page size");
	if (img->nsegments == ELF_MAX_SEGMENTS)
		return fail(why, "too many loadable segments");
	img->segments[img->nsegments++] = s;
	return 0;
}

/*
 * The interpreter's path: where it lies in the file (execve reads it and
 * checks its terminating NUL). The first PT_INTERP counts, as in Linux.
 */
static int
parse_interp(const u8 *ph, u64 file_size, struct elf_image *img, const char **why)
{
	u64 offset = rd64(ph + 8), size = rd64(ph + 32);

	if (img->interp_size)
		return 0;
	if (size < 2 || size > INTERP_MAX)
		return fail(why, "interpreter path (PT_INTERP) is empty or longer than PATH_MAX");
	if (offset > file_size || size > file_size - offset)
		return fail(why, "interpreter path (PT_INTERP) extends past the end of the file");
	img->interp_offset = offset;
	img->interp_size = size;
	return 0;
}

static bool
entry_is_loaded(const struct elf_image *img)
{
	for (int i = 0; i < img->nsegments; i++) {
		const struct elf_segment *s = &img->segments[i];
		if ((s->flags & PF_X) && img->entry >= s->vaddr && img->entry < s->vaddr + s->memsz)
			return true;
	}
	return false;
}

int
elf_phdr_table(const u8 *b, size_t len, u64 *offset, size_t *size, const char **why)
{
	int err = check_ident(b, len, why);
	if (err)
		return err;
	u16 type = rd16(b + 16);
	if (type != ET_EXEC && type != ET_DYN)
		return fail(why, "not an executable (ELF type)");
	if (rd16(b + 18) != EM_X86_64)
		return fail(why, "not an x86-64 executable");
	u16 phentsize = rd16(b + 54), phnum = rd16(b + 56);
	if (phentsize != PHDR_SIZE || phnum == 0 || phnum > ELF_MAX_PHNUM)
		return fail(why, "bad program header table size");
	*offset = rd64(b + 32);
	*size = (size_t)phnum * PHDR_SIZE;
	return 0;
}

int
elf_parse(const u8 *b, size_t len, u64 file_size, struct elf_image *img, const char **why)
{
	u64 phoff;
	size_t size;
	int err = elf_phdr_table(b, len, &phoff, &size, why);

	if (err)
		return err;
	if (phoff > len || size > len - phoff)
		return fail(why, "program headers lie outside the first page of the file");
	return elf_parse_split(b, len, b + phoff, file_size, img, why);
}

int
elf_parse_split(const u8 *b, size_t len, const u8 *phdrs, u64 file_size, struct elf_image *img,
		const char **why)
{
	u64 phoff;
	size_t size;
	int err = elf_phdr_table(b, len, &phoff, &size, why);
	if (err)
		return err;
	memset(img, 0, sizeof(*img));
	img->relocatable = rd16(b + 16) == ET_DYN;
	img->entry = rd64(b + 24);
	u16 phnum = (u16)(size / PHDR_SIZE);
	img->phnum = phnum;

	u64 phdr_in_memory = 0;
	for (u16 i = 0; i < phnum; i++) {
		const u8 *ph = phdrs + (u64)i * PHDR_SIZE;
		u32 ptype = rd32(ph);
		if (ptype == PT_INTERP && (err = parse_interp(ph, file_size, img, why)))
			return err;
		if (ptype == PT_PHDR)
			phdr_in_memory = rd64(ph + 16);
		if (ptype == PT_GNU_STACK)
			img->exec_stack = rd32(ph + 4) & PF_X;
		if (ptype == PT_LOAD && (err = parse_segment(ph, file_size, img, why)))
			return err;
	}
	if (img->nsegments == 0)
		return fail(why, "no loadable segments");
	if (!entry_is_loaded(img))
		return fail(why, "entry point is not in an executable segment");
	/* AT_PHDR: the PT_PHDR entry, else the headers inside the segment that maps file offset phoff. */
	for (int i = 0; !phdr_in_memory && i < img->nsegments; i++) {
		const struct elf_segment *s = &img->segments[i];
		if (phoff >= s->offset && phoff < s->offset + s->filesz)
			phdr_in_memory = s->vaddr + (phoff - s->offset);
	}
	img->phdr_vaddr = phdr_in_memory;
	return 0;
}
