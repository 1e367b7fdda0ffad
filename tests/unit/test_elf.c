/*
 * test_elf.c - host tests for the ELF64 header checks (kernel/process/elf.c).
 *
 * A small builder describes an image as an ELF header plus program headers
 * (fields set by name, then written at their gABI offsets with memcpy) and
 * hands elf_parse a malloc'd copy of exactly the header bytes, so ASan
 * catches any read past the buffer. The file size given to elf_parse is set
 * separately, as execve gives it: the buffer is only the start of the file.
 *
 * Covers a typical static executable, PT_PHDR, static PIE (ET_DYN),
 * PT_GNU_STACK, PT_INTERP, every kind of rejection with its message, the boundaries of
 * each check (exactly fitting is fine, one byte more is not, wrapping sums
 * are caught), every truncation of a valid image, and byte flips and random
 * program headers, after which an accepted image must still satisfy every
 * promise elf.h makes.
 */
#include "tests/unit/elf_builder.h"

/* ---- valid images ----------------------------------------------------------- */

UNIT_TEST(static_exec_is_described)
{
	static_exec();
	CHECK(ACCEPTS());
	CHECK_EQ(img.entry, ENTRY);
	CHECK(!img.relocatable);
	CHECK_EQ(img.phnum, 3);
	CHECK_EQ(img.nsegments, 2);
	check_segment(&img.segments[0], TEXT_VADDR, TEXT_SIZE, 0, TEXT_SIZE, PF_R | PF_X);
	check_segment(&img.segments[1], DATA_VADDR, DATA_MEMSZ, DATA_OFFSET, DATA_FILESZ,
		      PF_R | PF_W);
	/* No PT_PHDR: the headers at file offset 64 are mapped by the text segment. */
	CHECK_EQ(img.phdr_vaddr, TEXT_VADDR + ELF_EHDR_SIZE);
	CHECK(!img.exec_stack);
}

UNIT_TEST(buffer_longer_than_the_headers_is_fine)
{
	/* What execve really passes: the first page of a file larger than it. */
	static_exec();
	buf_len = ELF_HEADER_READ;
	CHECK(ACCEPTS());
	CHECK_EQ(img.nsegments, 2);
	file_size = 0x100000;
	CHECK(ACCEPTS());
}

UNIT_TEST(pt_phdr_gives_phdr_vaddr)
{
	static_exec();
	/* Deliberately not where the text segment maps offset 64, so the source shows. */
	add_ph(PT_PHDR, PF_R, ELF_EHDR_SIZE, 0x500040, 4 * PHDR_SIZE, 4 * PHDR_SIZE);
	CHECK(ACCEPTS());
	CHECK_EQ(img.phdr_vaddr, 0x500040);
	CHECK_EQ(img.phnum, 4);
	CHECK_EQ(img.nsegments, 2); /* PT_PHDR is not loaded by itself */

	/* Order does not matter: PT_PHDR usually comes first. */
	static_exec();
	ph[3] = ph[0];
	ph[0] = (struct phdr){ .type = PT_PHDR,
			       .flags = PF_R,
			       .offset = ELF_EHDR_SIZE,
			       .vaddr = 0x500040,
			       .filesz = 4 * PHDR_SIZE,
			       .memsz = 4 * PHDR_SIZE };
	nph = 4;
	CHECK(ACCEPTS());
	CHECK_EQ(img.phdr_vaddr, 0x500040);
}

UNIT_TEST(phdr_vaddr_from_a_segment_not_at_offset_zero)
{
	/* The headers at file offset 0x1040, mapped by a segment that starts at offset 0x1000. */
	new_image(ET_EXEC);
	eh.entry = 0x801000;
	eh.phoff = 0x1040;
	add_ph(PT_LOAD, PF_R | PF_X, 0x1000, 0x801000, 0x800, 0x800);
	buf_len = 0x1040 + PHDR_SIZE;
	/* serialize() writes the one entry right after the ELF header... */
	size_t size = buf_len;
	u8 *b = serialize(&size);
	/* ...so move it to where e_phoff says. */
	memmove(b + 0x1040, b + ELF_EHDR_SIZE, PHDR_SIZE);
	memset(b + ELF_EHDR_SIZE, 0, PHDR_SIZE);
	CHECK_EQ(parse_bytes(b, size, 0x2000), 0);
	CHECK_EQ(img.phdr_vaddr, 0x801040);
	CHECK_EQ(img.phnum, 1);
	free(b);
}

UNIT_TEST(phdr_vaddr_zero_when_headers_are_not_loaded)
{
	static_exec();
	ph[0].offset = 0x1000; /* the text no longer maps the headers */
	ph[0].vaddr = TEXT_VADDR + 0x1000;
	ph[0].filesz = ph[0].memsz = 0x800;
	eh.entry = TEXT_VADDR + 0x1000;
	CHECK(ACCEPTS());
	CHECK_EQ(img.phdr_vaddr, 0);

	/* A file part ending exactly at e_phoff does not hold the headers; one byte more does. */
	static_exec();
	ph[0].filesz = ELF_EHDR_SIZE;
	CHECK(ACCEPTS());
	CHECK_EQ(img.phdr_vaddr, 0);
	ph[0].filesz = ELF_EHDR_SIZE + 1;
	CHECK(ACCEPTS());
	CHECK_EQ(img.phdr_vaddr, TEXT_VADDR + ELF_EHDR_SIZE);
}

UNIT_TEST(static_pie_is_relocatable)
{
	new_image(ET_DYN);
	eh.entry = 0x1040;
	add_ph(PT_LOAD, PF_R, 0, 0, 0x800, 0x800);
	add_ph(PT_LOAD, PF_R | PF_X, 0x1000, 0x1000, 0x500, 0x500);
	add_ph(PT_LOAD, PF_R | PF_W, 0x2000, 0x3000, 0x100, 0x900);
	add_ph(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0);
	file_size = 0x2100;
	CHECK(ACCEPTS());
	CHECK(img.relocatable);
	CHECK_EQ(img.entry, 0x1040);
	CHECK_EQ(img.nsegments, 3);
	CHECK_EQ(img.phdr_vaddr, ELF_EHDR_SIZE); /* before the load bias */
	check_segment(&img.segments[2], 0x3000, 0x900, 0x2000, 0x100, PF_R | PF_W);
	CHECK(!img.exec_stack);
}

UNIT_TEST(gnu_stack_flags_decide_exec_stack)
{
	static_exec();
	ph[2].flags = PF_R | PF_W | PF_X;
	CHECK(ACCEPTS());
	CHECK(img.exec_stack);

	static_exec();
	ph[2].flags = PF_X;
	CHECK(ACCEPTS());
	CHECK(img.exec_stack);

	static_exec();
	nph = 2; /* no PT_GNU_STACK at all */
	CHECK(ACCEPTS());
	CHECK(!img.exec_stack);
}

UNIT_TEST(zero_memsz_loads_are_ignored)
{
	static_exec();
	/* Nonsense that would fail every other check if it were looked at. */
	add_ph(PT_LOAD, PF_R | PF_W | PF_X, 0x123, 0xffffffff80000000ul, 0, 0);
	add_ph(PT_LOAD, PF_R, 0, 0x7ffffffff000ul + 5, 0, 0);
	CHECK(ACCEPTS());
	CHECK_EQ(img.nsegments, 2);
	CHECK_EQ(img.phnum, 5);

	/* ...and do not count toward ELF_MAX_SEGMENTS. */
	static_exec();
	for (int i = 2; i < ELF_MAX_SEGMENTS; i++)
		add_ph(PT_LOAD, PF_R, 0, 0x10000000ul * i, 0x10, 0x10);
	for (int i = 0; i < 8; i++)
		add_ph(PT_LOAD, PF_R, 0, 0, 0, 0);
	CHECK(ACCEPTS());
	CHECK_EQ(img.nsegments, ELF_MAX_SEGMENTS);

	/* An entry point in a zero-sized executable segment is not loaded. */
	static_exec();
	add_ph(PT_LOAD, PF_R | PF_X, 0, 0x900000, 0, 0);
	eh.entry = 0x900000;
	CHECK(REJECTS("entry point"));
}

UNIT_TEST(other_program_headers_are_ignored)
{
	/* The shape of a gcc -static binary: notes, TLS, RELRO, property, and PT_NULL. */
	new_image(ET_EXEC);
	eh.entry = 0x401bc0;
	add_ph(PT_LOAD, PF_R, 0, 0x400000, 0x518, 0x518);
	add_ph(PT_LOAD, PF_R | PF_X, 0x1000, 0x401000, 0x9537d, 0x9537d);
	add_ph(PT_LOAD, PF_R, 0x97000, 0x497000, 0x2864c, 0x2864c);
	add_ph(PT_LOAD, PF_R | PF_W, 0xc07b0, 0x4c17b0, 0x5ae0, 0xb498);
	add_ph(PT_NOTE, PF_R, 0x270, 0x400270, 0x30, 0x30);
	add_ph(PT_NOTE, PF_R, 0x2a0, 0x4002a0, 0x44, 0x44);
	add_ph(PT_TLS, PF_R, 0xc07b0, 0x4c17b0, 0x20, 0x68);
	add_ph(PT_GNU_PROPERTY, PF_R, 0x270, 0x400270, 0x30, 0x30);
	add_ph(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0);
	add_ph(PT_GNU_RELRO, PF_R, 0xc07b0, 0x4c17b0, 0x3850, 0x3850);
	add_ph(PT_NULL, 0, 0xffffffffffffffffull, 0xffffffffffffffffull, 5, 1);
	add_ph(0x60000000, 0, 0xffffffffffffffffull, 3, 0xffffffffffffffffull, 0);
	file_size = 0xc6290 + 0x1000;
	CHECK(ACCEPTS());
	CHECK_EQ(img.nsegments, 4);
	CHECK_EQ(img.phnum, 12);
	CHECK_EQ(img.phdr_vaddr, 0x400040);
	CHECK(!img.exec_stack);
	check_segment(&img.segments[3], 0x4c17b0, 0xb498, 0xc07b0, 0x5ae0, PF_R | PF_W);
}

UNIT_TEST(boundaries_that_are_still_valid)
{
	/* A segment ending exactly at the end of the file. */
	static_exec();
	file_size = DATA_OFFSET + DATA_FILESZ;
	CHECK(ACCEPTS());

	/* A bss-only segment whose offset is the end of the file. */
	static_exec();
	add_ph(PT_LOAD, PF_R | PF_W, file_size, 0x700000 + (file_size & 0xfff), 0, 0x1000);
	CHECK(ACCEPTS());
	CHECK_EQ(img.nsegments, 3);

	/* A segment ending exactly at the top of user space. */
	static_exec();
	add_ph(PT_LOAD, PF_R | PF_W, 0, USER_TOP - 0x1000, 0, 0x1000);
	CHECK(ACCEPTS());

	/* An unaligned address with the same offset within the page. */
	static_exec();
	ph[1].vaddr = DATA_VADDR + 0x7b0;
	ph[1].offset = DATA_OFFSET + 0x7b0;
	file_size = DATA_OFFSET + 0x7b0 + DATA_FILESZ;
	CHECK(ACCEPTS());
	CHECK_EQ(img.segments[1].vaddr, DATA_VADDR + 0x7b0);

	/* filesz == memsz, entry at the first and the last byte of the text. */
	static_exec();
	eh.entry = TEXT_VADDR;
	CHECK(ACCEPTS());
	eh.entry = TEXT_VADDR + TEXT_SIZE - 1;
	CHECK(ACCEPTS());

	/* Exactly ELF_MAX_SEGMENTS loads and exactly 64 program headers. */
	static_exec();
	for (int i = 2; i < ELF_MAX_SEGMENTS; i++)
		add_ph(PT_LOAD, PF_R, 0, 0x10000000ul * i, 0x10, 0x10);
	while (nph < 64)
		add_ph(PT_NULL, 0, 0, 0, 0, 0);
	CHECK(ACCEPTS());
	CHECK_EQ(img.nsegments, ELF_MAX_SEGMENTS);
	CHECK_EQ(img.phnum, 64);

	/* Program headers ending exactly at the end of the buffer, after a gap. */
	static_exec();
	eh.phoff = 0x200;
	buf_len = 0x200 + 3 * PHDR_SIZE;
	size_t size = buf_len;
	u8 *b = serialize(&size);
	memmove(b + 0x200, b + ELF_EHDR_SIZE, 3 * PHDR_SIZE);
	CHECK_EQ(parse_bytes(b, size, file_size), 0);
	CHECK_EQ(img.phdr_vaddr, TEXT_VADDR + 0x200);
	free(b);
}

/* ---- rejections: the ELF header ---------------------------------------------- */

UNIT_TEST(file_shorter_than_an_elf_header)
{
	size_t size = 0;
	u8 *b;

	static_exec();
	b = serialize(&size);
	for (size_t len = 0; len < ELF_EHDR_SIZE; len++) {
		CHECK_EQ(parse_bytes(b, len, len), -ENOEXEC);
		CHECK(why && strstr(why, "shorter than an ELF header"));
	}
	free(b);
}

UNIT_TEST(bad_magic)
{
	for (int i = 0; i < 4; i++) {
		static_exec();
		eh.ident[i] ^= 0x20;
		CHECK(REJECTS("bad magic"));
	}
	static_exec();
	memcpy(eh.ident, "#!/b", 4);
	CHECK(REJECTS("bad magic"));
}

UNIT_TEST(not_64_bit)
{
	static const u8 classes[] = { 0, 1, 3, 0xff };

	for (size_t i = 0; i < ARRAY_SIZE(classes); i++) {
		static_exec();
		eh.ident[4] = classes[i];
		CHECK(REJECTS("64-bit"));
	}
}

UNIT_TEST(not_little_endian)
{
	static const u8 data[] = { 0, 2, 3 };

	for (size_t i = 0; i < ARRAY_SIZE(data); i++) {
		static_exec();
		eh.ident[5] = data[i];
		CHECK(REJECTS("little-endian"));
	}
}

UNIT_TEST(bad_ident_version)
{
	static const u8 versions[] = { 0, 2, 0xff };

	for (size_t i = 0; i < ARRAY_SIZE(versions); i++) {
		static_exec();
		eh.ident[6] = versions[i];
		CHECK(REJECTS("version"));
	}
}

UNIT_TEST(not_an_executable_type)
{
	static const u16 types[] = { ET_NONE, ET_REL, ET_CORE, 5, 0xfe00, 0xff00, 0xffff };

	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		static_exec();
		eh.type = types[i];
		CHECK(REJECTS("not an executable"));
	}
}

UNIT_TEST(wrong_machine)
{
	static const u16 machines[] = {
		0, EM_386, EM_AARCH64, 40 /* ARM */, 243 /* RISC-V */, 62 | 0x100
	};

	for (size_t i = 0; i < ARRAY_SIZE(machines); i++) {
		static_exec();
		eh.machine = machines[i];
		CHECK(REJECTS("not an x86-64 executable"));
	}
}

UNIT_TEST(bad_program_header_entry_size)
{
	static const u16 sizes[] = { 0, 32 /* ELF32 */, 55, 57, 64, 0xffff };

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		static_exec();
		eh.phentsize = sizes[i];
		CHECK(REJECTS("program header table size"));
	}
}

UNIT_TEST(bad_program_header_count)
{
	static_exec();
	phnum_set = true;
	eh.phnum = 0;
	CHECK(REJECTS("program header table size"));

	/* 65 real entries, all in the buffer: still too many. */
	static_exec();
	while (nph < 65)
		add_ph(PT_NULL, 0, 0, 0, 0, 0);
	CHECK(REJECTS("program header table size"));

	static_exec();
	phnum_set = true;
	eh.phnum = 0xffff; /* PN_XNUM: the count is in a section header */
	CHECK(REJECTS("program header table size"));
}

UNIT_TEST(program_headers_outside_the_buffer)
{
	static const u64 offsets[] = {
		0xffffffffffffffffull, 0xffffffffffffffffull - 10,
		0x8000000000000000ull, 1ull << 32,
		ELF_HEADER_READ,       ELF_EHDR_SIZE + 1,
	};

	for (size_t i = 0; i < ARRAY_SIZE(offsets); i++) {
		static_exec();
		eh.phoff = offsets[i];
		CHECK(REJECTS("program headers lie outside"));
	}

	/* phoff just past the buffer, and phoff + phnum * 56 one byte past it. */
	static_exec();
	eh.phoff = ELF_EHDR_SIZE + 3 * PHDR_SIZE + 1;
	CHECK(REJECTS("program headers lie outside"));
	static_exec();
	buf_len = ELF_EHDR_SIZE + 3 * PHDR_SIZE - 1;
	CHECK(REJECTS("program headers lie outside"));

	/* e_phnum claims more entries than the buffer holds. */
	static_exec();
	phnum_set = true;
	eh.phnum = 4;
	CHECK(REJECTS("program headers lie outside"));
	eh.phnum = 64;
	CHECK(REJECTS("program headers lie outside"));
}

UNIT_TEST(every_truncation_is_rejected)
{
	size_t size = 0;
	u8 *b;

	static_exec();
	b = serialize(&size);
	CHECK_EQ(parse_bytes(b, size, file_size), 0);
	for (size_t len = 0; len < size; len++) {
		CHECK_EQ(parse_bytes(b, len, file_size), -ENOEXEC);
		CHECK(why != NULL);
	}
	free(b);
}

/* ---- rejections: program headers ------------------------------------------------ */

UNIT_TEST(interpreter_path_is_described)
{
	static_exec();
	CHECK(ACCEPTS());
	CHECK_EQ(img.interp_size, 0); /* static: no interpreter */

	/* First, as a linker puts it. */
	static_exec();
	ph[3] = ph[0];
	ph[0] = (struct phdr){ .type = PT_INTERP,
			       .flags = PF_R,
			       .offset = 0x200,
			       .vaddr = TEXT_VADDR + 0x200,
			       .filesz = 0x1c,
			       .memsz = 0x1c };
	nph = 4;
	CHECK(ACCEPTS());
	CHECK_EQ(img.interp_offset, 0x200);
	CHECK_EQ(img.interp_size, 0x1c);
	CHECK_EQ(img.nsegments, 2); /* PT_INTERP is not loaded by itself */

	/* The first one counts; a later one is not looked at. */
	add_ph(PT_INTERP, 0, 0xffffffffffffffffull, 0, 0xffffffffffffffffull, 0);
	CHECK(ACCEPTS());
	CHECK_EQ(img.interp_offset, 0x200);

	/* Exactly to the end of the file and exactly PATH_MAX long are fine. */
	static_exec();
	file_size = 0x4000;
	add_ph(PT_INTERP, PF_R, 0x3000, 0, 0x1000, 0x1000);
	CHECK(ACCEPTS());
	CHECK_EQ(img.interp_size, 0x1000);
}

UNIT_TEST(bad_interpreter_path_is_rejected)
{
	static_exec();
	add_ph(PT_INTERP, PF_R, 0x200, 0, 1, 1); /* not even one character and a NUL */
	CHECK(REJECTS("PATH_MAX"));

	static_exec();
	file_size = 0x4000;
	add_ph(PT_INTERP, PF_R, 0x200, 0, 0x1001, 0x1001);
	CHECK(REJECTS("PATH_MAX"));

	static_exec();
	file_size = 0x4000;
	add_ph(PT_INTERP, PF_R, 0x3001, 0, 0x1000, 0x1000);
	CHECK(REJECTS("past the end of the file"));
	ph[nph - 1].offset = 0xffffffffffffff00ull; /* offset + size wraps */
	CHECK(REJECTS("past the end of the file"));

	/* Even for ET_DYN. */
	static_exec();
	eh.type = ET_DYN;
	add_ph(PT_INTERP, 0, 0xffffffffffffffffull, 0, 0xffffffffffffffffull, 0);
	CHECK(REJECTS("PT_INTERP"));
}

UNIT_TEST(file_size_exceeds_memory_size)
{
	static_exec();
	ph[1].memsz = ph[1].filesz - 1;
	CHECK(REJECTS("file size exceeds its memory size"));

	/* Even when memsz is 0, which would otherwise make the segment ignored. */
	static_exec();
	add_ph(PT_LOAD, PF_R, 0, 0x900000, 1, 0);
	CHECK(REJECTS("file size exceeds its memory size"));
}

UNIT_TEST(segment_past_end_of_file)
{
	static_exec();
	file_size = DATA_OFFSET + DATA_FILESZ - 1;
	CHECK(REJECTS("past the end of the file"));

	static_exec();
	ph[1].filesz = ph[1].memsz;
	CHECK(REJECTS("past the end of the file"));

	/* offset beyond the file */
	static_exec();
	ph[1].offset = file_size + 0x1000;
	ph[1].vaddr = DATA_VADDR + 0x1000;
	CHECK(REJECTS("past the end of the file"));

	/* offset + filesz wraps around to a small number */
	static_exec();
	ph[1].offset = 0xfffffffffffff000ull;
	ph[1].filesz = 0x1000 + 0x100;
	ph[1].memsz = ph[1].filesz;
	CHECK(REJECTS("past the end of the file"));

	static_exec();
	ph[1].filesz = 0xffffffffffffffffull;
	ph[1].memsz = 0xffffffffffffffffull;
	CHECK(REJECTS("past the end of the file"));

	/* The buffer is only the start: the check is against the file size. */
	static_exec();
	file_size = ELF_EHDR_SIZE + 3 * PHDR_SIZE;
	CHECK(REJECTS("past the end of the file"));
}

UNIT_TEST(segment_outside_user_space)
{
	static const u64 addrs[] = {
		USER_TOP,
		USER_TOP + 0x1000,
		0xffff800000000000ull,
		0xffffffff80000000ull,
		0xfffffffffffff000ull,
	};

	for (size_t i = 0; i < ARRAY_SIZE(addrs); i++) {
		static_exec();
		add_ph(PT_LOAD, PF_R | PF_W, 0, addrs[i], 0, 0x1000);
		CHECK(REJECTS("outside user space"));
	}

	/* Starting in user space but ending past it, by one byte. */
	static_exec();
	add_ph(PT_LOAD, PF_R | PF_W, 0, USER_TOP - 0x1000, 0, 0x1001);
	CHECK(REJECTS("outside user space"));

	/* vaddr + memsz wraps around to a small address. */
	static_exec();
	ph[1].memsz = 0xffffffffffffffffull - DATA_VADDR + 0x1000;
	CHECK(REJECTS("outside user space"));
	static_exec();
	ph[1].memsz = 0xffffffffffffffffull;
	CHECK(REJECTS("outside user space"));

	/* The text itself, with the entry point in it. */
	static_exec();
	ph[0].vaddr = 0xffffffff80000000ull;
	eh.entry = ph[0].vaddr + 0x100;
	CHECK(REJECTS("outside user space"));
}

UNIT_TEST(address_and_offset_must_agree_modulo_the_page_size)
{
	static const u64 skews[] = { 1, 8, 0x7ff, 0x800, 0xfff };

	for (size_t i = 0; i < ARRAY_SIZE(skews); i++) {
		static_exec();
		ph[1].vaddr = DATA_VADDR + skews[i];
		CHECK(REJECTS("modulo the page size"));
		static_exec();
		ph[1].offset = DATA_OFFSET - skews[i];
		CHECK(REJECTS("modulo the page size"));
	}
	/* A whole number of pages apart is fine. */
	static_exec();
	ph[1].vaddr = DATA_VADDR + 0x5000;
	CHECK(ACCEPTS());
}

UNIT_TEST(too_many_loadable_segments)
{
	static_exec();
	for (int i = 2; i <= ELF_MAX_SEGMENTS; i++)
		add_ph(PT_LOAD, PF_R, 0, 0x10000000ul * i, 0x10, 0x10);
	CHECK_EQ(nph, ELF_MAX_SEGMENTS + 2);
	CHECK(REJECTS("too many loadable segments"));
}

UNIT_TEST(no_loadable_segments)
{
	static_exec();
	ph[0] = ph[2]; /* PT_GNU_STACK */
	ph[1] = (struct phdr){ .type = PT_NOTE,
			       .flags = PF_R,
			       .offset = 0x200,
			       .vaddr = TEXT_VADDR + 0x200,
			       .filesz = 0x20,
			       .memsz = 0x20 };
	CHECK(REJECTS("no loadable segments"));

	/* Only empty ones. */
	static_exec();
	ph[0].filesz = ph[0].memsz = 0;
	ph[1].filesz = ph[1].memsz = 0;
	CHECK(REJECTS("no loadable segments"));
}

UNIT_TEST(entry_point_must_be_in_an_executable_segment)
{
	static const u64 entries[] = {
		0,
		TEXT_VADDR - 1,
		TEXT_VADDR + TEXT_SIZE,
		TEXT_VADDR + 0x2000,
		DATA_VADDR,
		DATA_VADDR + DATA_MEMSZ - 1,
		USER_TOP,
		0xffffffff80001000ull,
		0xffffffffffffffffull,
	};

	for (size_t i = 0; i < ARRAY_SIZE(entries); i++) {
		static_exec();
		eh.entry = entries[i];
		CHECK(REJECTS("entry point"));
	}

	/* The text mapped readable but not executable: nothing to run. */
	static_exec();
	ph[0].flags = PF_R;
	CHECK(REJECTS("entry point is not in an executable segment"));

	/* In the bss of an executable segment is still inside it. */
	static_exec();
	ph[1].flags = PF_R | PF_W | PF_X;
	eh.entry = DATA_VADDR + DATA_MEMSZ - 1;
	CHECK(ACCEPTS());
}

/* ---- everything accepted keeps elf.h's promises ----------------------------------- */

static void
check_promises(u64 fsize)
{
	bool entry_found = false;

	CHECK(img.nsegments >= 1 && img.nsegments <= ELF_MAX_SEGMENTS);
	CHECK(img.phnum >= 1 && img.phnum <= 64);
	for (int i = 0; i < img.nsegments && i < ELF_MAX_SEGMENTS; i++) {
		const struct elf_segment *s = &img.segments[i];
		CHECK(s->memsz > 0);
		CHECK(s->filesz <= s->memsz);
		CHECK(s->offset <= fsize && s->filesz <= fsize - s->offset);
		CHECK(s->vaddr < USER_TOP && s->memsz <= USER_TOP - s->vaddr);
		CHECK((s->vaddr - s->offset) % PAGE_SIZE == 0);
		if ((s->flags & PF_X) && img.entry >= s->vaddr && img.entry - s->vaddr < s->memsz)
			entry_found = true;
	}
	CHECK(entry_found);
	if (img.interp_size) /* execve may read the interpreter's path where elf_parse says */
		CHECK(img.interp_size >= 2 && img.interp_size <= 4096 &&
		      img.interp_offset <= fsize && img.interp_size <= fsize - img.interp_offset);
}

UNIT_TEST(byte_flips_give_a_valid_image_or_a_reason)
{
	static const u8 flips[] = { 0x01, 0x10, 0x80, 0xff };
	size_t size = 0;
	u8 *b;
	int accepted = 0, rejected = 0;

	static_exec();
	add_ph(PT_PHDR, PF_R, ELF_EHDR_SIZE, TEXT_VADDR + ELF_EHDR_SIZE, 4 * PHDR_SIZE,
	       4 * PHDR_SIZE);
	b = serialize(&size);
	for (size_t i = 0; i < size; i++) {
		for (size_t f = 0; f < ARRAY_SIZE(flips); f++) {
			b[i] ^= flips[f];
			int ret = parse_bytes(b, size, file_size);
			b[i] ^= flips[f];
			if (ret == 0) {
				accepted++;
				check_promises(file_size);
			} else {
				rejected++;
				CHECK_EQ(ret, -ENOEXEC);
				CHECK(why != NULL && why[0] != '\0');
			}
		}
	}
	CHECK(accepted > 0);
	CHECK(rejected > 0);
	free(b);
}

/* A value that is often at an edge: 0, small, page-ish, near USER_TOP, near 2^64. */
static u64
edgy(void)
{
	static const u64 edges[] = {
		0,
		1,
		0x40,
		0xfff,
		0x1000,
		0x1001,
		0x10000,
		USER_TOP - 0x1000,
		USER_TOP - 1,
		USER_TOP,
		0x8000000000000000ull,
		0xfffffffffffff000ull,
		0xffffffffffffffffull,
	};
	u64 r = rng();

	switch (r % 4) {
	case 0:
		return edges[(r >> 8) % ARRAY_SIZE(edges)];
	case 1:
		return (r >> 8) & 0x3fff;
	case 2:
		return 0x400000 + ((r >> 8) & 0xfffff);
	default:
		return rng();
	}
}

UNIT_TEST(random_program_headers_give_a_valid_image_or_a_reason)
{
	static const u32 types[] = { PT_LOAD,	   PT_LOAD, PT_LOAD, PT_NULL,  PT_PHDR,
				     PT_GNU_STACK, PT_NOTE, PT_TLS,  PT_INTERP };
	int accepted = 0;

	for (int iter = 0; iter < 20000; iter++) {
		new_image(rng() & 1 ? ET_EXEC : ET_DYN);
		int n = 1 + (int)(rng() % 20);
		for (int i = 0; i < n; i++) {
			u32 type = types[rng() % ARRAY_SIZE(types)];
			u64 vaddr = edgy(), memsz = edgy();
			u64 offset = rng() & 1 ? (vaddr & 0xfff) + (rng() & 0xf000) : edgy();
			u64 filesz = rng() & 1 ? memsz >> (rng() % 4) : edgy();
			add_ph(type, (u32)(rng() & 7), offset, vaddr, filesz, memsz);
		}
		/* An entry point usually inside some segment. */
		const struct phdr *p = &ph[rng() % (u64)n];
		eh.entry = rng() & 3 ? p->vaddr + (p->memsz ? rng() % p->memsz : 0) : edgy();
		file_size = rng() & 1 ? edgy() : 0x100000;
		int ret = parse();
		if (ret == 0) {
			accepted++;
			check_promises(file_size);
		} else {
			CHECK_EQ(ret, -ENOEXEC);
			CHECK(why != NULL && why[0] != '\0');
		}
		if (unit_failures_in_test)
			break;
	}
	CHECK(accepted > 0);
}
