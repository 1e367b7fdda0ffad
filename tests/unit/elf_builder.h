/*
 * elf_builder.h - the ELF image builder of test_elf.c: an image described
 * as an ELF header plus program headers (fields set by name, written at
 * their gABI offsets), parsed from a malloc'd copy of exactly its bytes so
 * that ASan catches any read past the buffer; and the typical static
 * executable the tests start from. Includes kernel/process/elf.c.
 */
#ifndef REWIND_TEST_ELF_BUILDER_H
#define REWIND_TEST_ELF_BUILDER_H

#include <stdint.h>
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#include "kernel/process/elf.c"

#define PT_NULL		0
#define PT_NOTE		4
#define PT_TLS		7
#define PT_GNU_RELRO	0x6474e552
#define PT_GNU_PROPERTY 0x6474e553
#define ET_NONE		0
#define ET_REL		1
#define ET_CORE		4
#define EM_386		3
#define EM_AARCH64	183
#define MAX_PH		80

/* ---- the builder ------------------------------------------------------------ */

struct phdr {
	u32 type, flags;
	u64 offset, vaddr, paddr, filesz, memsz, align;
};

static struct {
	u8 ident[16];
	u16 type, machine;
	u32 version;
	u64 entry, phoff, shoff;
	u32 flags;
	u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
} eh;
static struct phdr ph[MAX_PH];
static int nph;	       /* entries in ph[] written after the header */
static bool phnum_set; /* eh.phnum set by the test, else nph */
static size_t buf_len; /* the buffer's size; 0 means exactly the headers */
static u64 file_size;

static struct elf_image img;
static const char *why;

static void
new_image(u16 type)
{
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.ident, "\177ELF", 4);
	eh.ident[4] = 2; /* ELFCLASS64 */
	eh.ident[5] = 1; /* ELFDATA2LSB */
	eh.ident[6] = 1; /* EV_CURRENT */
	eh.type = type;
	eh.machine = EM_X86_64;
	eh.version = 1;
	eh.phoff = ELF_EHDR_SIZE;
	eh.ehsize = ELF_EHDR_SIZE;
	eh.phentsize = PHDR_SIZE;
	eh.shentsize = 64;
	memset(ph, 0, sizeof(ph));
	nph = 0;
	phnum_set = false;
	buf_len = 0;
	file_size = 0x10000;
}

static struct phdr *
add_ph(u32 type, u32 flags, u64 offset, u64 vaddr, u64 filesz, u64 memsz)
{
	struct phdr *p = &ph[nph++];

	*p = (struct phdr){ .type = type,
			    .flags = flags,
			    .offset = offset,
			    .vaddr = vaddr,
			    .paddr = vaddr,
			    .filesz = filesz,
			    .memsz = memsz,
			    .align = 0x1000 };
	return p;
}

/*
 * The usual static executable: text R-X from file offset 0 (so it holds the
 * headers), data RW- with bss, and a non-executable stack.
 */
#define TEXT_VADDR  0x400000ul
#define TEXT_SIZE   0x1234ul
#define DATA_VADDR  0x602000ul
#define DATA_OFFSET 0x2000ul
#define DATA_FILESZ 0x180ul
#define DATA_MEMSZ  0x1400ul
#define ENTRY	    (TEXT_VADDR + 0x1000)

static void
static_exec(void)
{
	new_image(ET_EXEC);
	eh.entry = ENTRY;
	add_ph(PT_LOAD, PF_R | PF_X, 0, TEXT_VADDR, TEXT_SIZE, TEXT_SIZE);
	add_ph(PT_LOAD, PF_R | PF_W, DATA_OFFSET, DATA_VADDR, DATA_FILESZ, DATA_MEMSZ);
	add_ph(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0);
	file_size = DATA_OFFSET + DATA_FILESZ;
}

static void
put16(u8 *p, u16 v)
{
	memcpy(p, &v, 2);
}
static void
put32(u8 *p, u32 v)
{
	memcpy(p, &v, 4);
}
static void
put64(u8 *p, u64 v)
{
	memcpy(p, &v, 8);
}

/* The headers as bytes, in a zeroed buffer of at least `size` bytes (size is updated). */
static u8 *
serialize(size_t *size)
{
	size_t need = ELF_EHDR_SIZE + (size_t)nph * PHDR_SIZE;
	u8 *b;

	if (*size == 0)
		*size = need;
	b = calloc(1, MAX(*size, need));
	memcpy(b, eh.ident, 16);
	put16(b + 16, eh.type);
	put16(b + 18, eh.machine);
	put32(b + 20, eh.version);
	put64(b + 24, eh.entry);
	put64(b + 32, eh.phoff);
	put64(b + 40, eh.shoff);
	put32(b + 48, eh.flags);
	put16(b + 52, eh.ehsize);
	put16(b + 54, eh.phentsize);
	put16(b + 56, phnum_set ? eh.phnum : (u16)nph);
	put16(b + 58, eh.shentsize);
	put16(b + 60, eh.shnum);
	put16(b + 62, eh.shstrndx);
	for (int i = 0; i < nph; i++) {
		u8 *p = b + ELF_EHDR_SIZE + (size_t)i * PHDR_SIZE;
		put32(p, ph[i].type);
		put32(p + 4, ph[i].flags);
		put64(p + 8, ph[i].offset);
		put64(p + 16, ph[i].vaddr);
		put64(p + 24, ph[i].paddr);
		put64(p + 32, ph[i].filesz);
		put64(p + 40, ph[i].memsz);
		put64(p + 48, ph[i].align);
	}
	return b;
}

/* elf_parse on an exactly-sized heap copy of bytes[0, len). */
static int
parse_bytes(const u8 *bytes, size_t len, u64 fsize)
{
	u8 *copy = malloc(len ? len : 1);
	int ret;

	memcpy(copy, bytes, len);
	memset(&img, 0xa5, sizeof(img)); /* so stale fields show */
	why = NULL;
	ret = elf_parse(copy, len, fsize, &img, &why);
	free(copy);
	return ret;
}

/* Builds the image described by eh/ph and parses it. */
static int
parse(void)
{
	size_t size = buf_len;
	u8 *b = serialize(&size);
	int ret = parse_bytes(b, size, file_size);

	free(b);
	return ret;
}

/* Parsing fails with -ENOEXEC and a message containing `words`. */
#define REJECTS(words) check_rejects(words, __LINE__)
static bool
check_rejects(const char *words, int line)
{
	int ret = parse();

	if (ret == -ENOEXEC && why && strstr(why, words))
		return true;
	printf("    line %d: expected -ENOEXEC with \"%s\", got %d (\"%s\")\n", line, words, ret,
	       why ? why : "(null)");
	return false;
}

#define ACCEPTS() check_accepts(__LINE__)
static bool
check_accepts(int line)
{
	int ret = parse();

	if (ret == 0)
		return true;
	printf("    line %d: expected success, got %d (\"%s\")\n", line, ret, why ? why : "(null)");
	return false;
}

static void
check_segment(const struct elf_segment *s, u64 vaddr, u64 memsz, u64 offset, u64 filesz, u32 flags)
{
	CHECK_EQ(s->vaddr, vaddr);
	CHECK_EQ(s->memsz, memsz);
	CHECK_EQ(s->offset, offset);
	CHECK_EQ(s->filesz, filesz);
	CHECK_EQ(s->flags, flags);
}

#endif
