/*
 * vdso.c - finding a function in the vDSO; see vdso.h.
 *
 * The vDSO is a shared object already in memory, so no file is read: the
 * program headers give the load bias and the dynamic section, the dynamic
 * section gives the symbol, string, hash and version tables. A symbol
 * counts when it is defined, a function or object, global or weak, and of
 * the version node LINUX_2.6 (an unversioned object would do too).
 */
#include "lib/vdso.h"

#include <elf.h>
#include <stddef.h>
#include <string.h>
#include <sys/auxv.h>

#define WANTED_VERSION "LINUX_2.6"

struct vdso_tables {
	unsigned long bias; /* run-time address - link-time address */
	const Elf64_Sym *symtab;
	const char *strtab;
	const Elf32_Word *hash;	  /* nbucket, nchain, buckets[], chains[] */
	const Elf64_Half *versym; /* NULL without versions */
	const Elf64_Verdef *verdef;
};

const void *
vdso_base(void)
{
	return (const void *)getauxval(AT_SYSINFO_EHDR);
}

/* The System V ELF hash of a symbol name (gABI, "Hash Table"). */
static unsigned long
elf_hash(const char *name)
{
	unsigned long h = 0;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h = (h << 4) + *p;
		unsigned long high = h & 0xf0000000;
		if (high)
			h ^= high >> 24;
		h &= ~high;
	}
	return h;
}

static int
find_tables(const Elf64_Ehdr *eh, struct vdso_tables *t)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)((const char *)eh + eh->e_phoff);
	const Elf64_Dyn *dyn = NULL;
	int have_bias = 0;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !have_bias) {
			t->bias = (unsigned long)eh + ph[i].p_offset - ph[i].p_vaddr;
			have_bias = 1;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			dyn = (const Elf64_Dyn *)((const char *)eh + ph[i].p_offset);
		}
	}
	if (!have_bias || !dyn)
		return -1;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		const void *p = (const void *)(dyn->d_un.d_ptr + t->bias);
		switch (dyn->d_tag) {
		case DT_SYMTAB:
			t->symtab = p;
			break;
		case DT_STRTAB:
			t->strtab = p;
			break;
		case DT_HASH:
			t->hash = p;
			break;
		case DT_VERSYM:
			t->versym = p;
			break;
		case DT_VERDEF:
			t->verdef = p;
			break;
		}
	}
	return t->symtab && t->strtab && t->hash ? 0 : -1;
}

/* Whether symbol i is of the version node we want (or the object has no versions). */
static int
version_matches(const struct vdso_tables *t, unsigned i)
{
	if (!t->versym || !t->verdef)
		return 1;
	Elf64_Half ndx = t->versym[i] & 0x7fff;
	for (const Elf64_Verdef *d = t->verdef;; d = (const void *)((const char *)d + d->vd_next)) {
		if (!(d->vd_flags & VER_FLG_BASE) && d->vd_ndx == ndx) {
			const Elf64_Verdaux *aux = (const void *)((const char *)d + d->vd_aux);
			return strcmp(t->strtab + aux->vda_name, WANTED_VERSION) == 0;
		}
		if (!d->vd_next)
			return 0;
	}
}

static int
symbol_usable(const Elf64_Sym *s)
{
	int type = ELF64_ST_TYPE(s->st_info), bind = ELF64_ST_BIND(s->st_info);

	return s->st_shndx != SHN_UNDEF &&
	       (type == STT_FUNC || type == STT_OBJECT || type == STT_NOTYPE) &&
	       (bind == STB_GLOBAL || bind == STB_WEAK);
}

void *
vdso_sym(const char *name)
{
	const Elf64_Ehdr *eh = vdso_base();
	struct vdso_tables t;

	if (!eh || find_tables(eh, &t) != 0)
		return NULL;
	Elf32_Word nbucket = t.hash[0];
	const Elf32_Word *bucket = t.hash + 2, *chain = bucket + nbucket;
	if (nbucket == 0)
		return NULL;
	for (Elf32_Word i = bucket[elf_hash(name) % nbucket]; i != STN_UNDEF; i = chain[i]) {
		const Elf64_Sym *s = &t.symtab[i];
		if (symbol_usable(s) && strcmp(t.strtab + s->st_name, name) == 0 &&
		    version_matches(&t, i))
			return (void *)(t.bias + s->st_value);
	}
	return NULL;
}
