/*
 * elf.h - checking an ELF64 executable's headers and describing what to
 * load. Plain C over a byte buffer (host unit-tested with malformed files):
 * everything execve trusts about a file is validated here first.
 *
 * Accepted: x86-64 little-endian ELF64, ET_EXEC or ET_DYN (PIE or a shared
 * object such as ld.so), with at least one PT_LOAD, and at most a PT_INTERP
 * naming the program interpreter (the dynamic loader execve starts first).
 * Anything else is -ENOEXEC.
 */
#ifndef REWIND_ELF_H
#define REWIND_ELF_H

#include "kernel/lib/types.h"

#define ELF_MAX_SEGMENTS 16
#define ELF_MAX_PHNUM	 64   /* program headers: a sane bound (Linux's is 64 KiB of them) */
#define ELF_HEADER_READ	 4096 /* execve reads this much before parsing */
#define ELF_EHDR_SIZE	 64   /* the ELF64 file header */

#define PF_X 1
#define PF_W 2
#define PF_R 4

struct elf_segment {
	u64 vaddr, memsz;   /* where and how much memory (before the load bias) */
	u64 offset, filesz; /* the file part */
	u32 flags;	    /* PF_R/W/X */
};

struct elf_image {
	u64 entry;
	bool relocatable; /* ET_DYN: loaded at a bias chosen by execve */
	u64 phdr_vaddr;	  /* where the program headers are in memory (AT_PHDR) */
	u16 phnum;
	bool exec_stack; /* PT_GNU_STACK asks for an executable stack */
	/* PT_INTERP: the interpreter's path lies at interp_offset in the file (0 bytes: none). */
	u64 interp_offset, interp_size;
	int nsegments;
	struct elf_segment segments[ELF_MAX_SEGMENTS];
};

/*
 * Parses the first buf_len bytes of a file of file_size bytes, which must
 * hold the program headers too. Returns 0, or -ENOEXEC with *why naming
 * the problem (for the kernel log).
 */
int elf_parse(const u8 *buf, size_t buf_len, u64 file_size, struct elf_image *out,
	      const char **why);
/*
 * Where the program headers of the file whose first buf_len bytes are buf
 * lie: file offset and size (0, or -ENOEXEC with *why), so that execve can
 * read them wherever e_phoff puts them, as Linux's load_elf_phdrs.
 */
int elf_phdr_table(const u8 *buf, size_t buf_len, u64 *offset, size_t *size, const char **why);
/* elf_parse with the program headers read separately into phdrs (elf_phdr_table's size). */
int elf_parse_split(const u8 *buf, size_t buf_len, const u8 *phdrs, u64 file_size,
		    struct elf_image *out, const char **why);

#endif
