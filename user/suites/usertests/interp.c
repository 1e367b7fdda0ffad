/*
 * interp.c - usertests: execve of a program that names an interpreter
 * (PT_INTERP), as every dynamically linked program names ld.so. The
 * programs are copies of this one with a program header turned into
 * PT_INTERP and the interpreter's path appended to the file: a missing,
 * unreadable or non-ELF interpreter must fail with Linux's errno, and a
 * good one must run first, told by the auxiliary vector where the program
 * is. (The real ld.so is exercised by make test's dynamically linked
 * programs.)
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* This program's file, read whole, with room for a path after it. */
static unsigned char *
read_self_with_room(size_t *len, size_t room)
{
	struct stat st;
	int fd = CHECK_OK(open(self_path, O_RDONLY));
	unsigned char *buf;

	CHECK_OK(fstat(fd, &st));
	buf = calloc(1, st.st_size + room);
	CHECK(buf != NULL);
	CHECK_EQ(read(fd, buf, st.st_size), st.st_size);
	close(fd);
	*len = st.st_size;
	return buf;
}

/* The program header to turn into PT_INTERP: an existing one, else one nobody needs. */
static Elf64_Phdr *
interp_slot(unsigned char *img)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + eh->e_phoff);
	static const Elf64_Word spare[] = { PT_INTERP, PT_GNU_STACK, PT_NOTE, PT_GNU_PROPERTY };

	for (unsigned s = 0; s < sizeof(spare) / sizeof(spare[0]); s++)
		for (int i = 0; i < eh->e_phnum; i++)
			if (ph[i].p_type == spare[s])
				return &ph[i];
	fail("no program header to reuse for PT_INTERP");
}

/*
 * Writes name: this program naming interp (len bytes of it, NUL or not) as
 * its interpreter, its entry point moved by entry_shift.
 */
static void
write_with_interp(const char *name, const char *interp, size_t len, unsigned long entry_shift)
{
	size_t size;
	unsigned char *img = read_self_with_room(&size, len);
	Elf64_Phdr *ph = interp_slot(img);

	memcpy(img + size, interp, len);
	*ph = (Elf64_Phdr){ .p_type = PT_INTERP,
			    .p_flags = PF_R,
			    .p_offset = size,
			    .p_filesz = len,
			    .p_memsz = len,
			    .p_align = 1 };
	((Elf64_Ehdr *)img)->e_entry += entry_shift;
	close(create_file(name, img, size + len, 0755));
	free(img);
}

/* The errno execve of path fails with, in a child; -1 if it ran. */
static int
exec_error(const char *path)
{
	char *argv[] = { (char *)path, "--helper", "exit", "0", NULL }, *envp[] = { NULL };
	pid_t pid = xfork();

	if (pid == 0) {
		syscall(SYS_execve, path, argv, envp);
		_exit(errno);
	}
	int status = wait_status(pid);
	return WIFEXITED(status) && WEXITSTATUS(status) ? WEXITSTATUS(status) : -1;
}

static void
expect_interp_error(const char *name, const char *interp, int want)
{
	char path[64];

	write_with_interp(name, interp, strlen(interp) + 1, 0);
	snprintf(path, sizeof(path), "./%s", name);
	int e = exec_error(path);
	if (e != want)
		fail("%s (interpreter %s): execve gave %s, want %s", name, interp,
		     e < 0 ? "success" : errname(e), errname(want));
}

TEST(exec_interpreter_errors)
{
	static const char text[] =
		"a text file, not an interpreter:\nlonger than the 64 bytes of an ELF header, so that it is read whole\n";
	make_file("text", text, sizeof(text) - 1);
	CHECK_OK(chmod("text", 0755));
	make_file("short", "#!", 2); /* shorter than an ELF header: the read of one fails */
	CHECK_OK(chmod("short", 0755));
	close(create_file("not-executable", "\177ELF", 4, 0644));
	CHECK_OK(mkdir("dir", 0755));
	char cwd[PATH_MAX], path[PATH_MAX + 32];
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);

	expect_interp_error("missing", "/no/such/ld.so", ENOENT);
	snprintf(path, sizeof(path), "%s/text", cwd);
	expect_interp_error("not-elf", path, ELIBBAD);
	snprintf(path, sizeof(path), "%s/short", cwd);
	expect_interp_error("short-file", path, EIO);
	snprintf(path, sizeof(path), "%s/not-executable", cwd);
	expect_interp_error("no-x", path, EACCES);
	snprintf(path, sizeof(path), "%s/dir", cwd);
	expect_interp_error("a-dir", path, EACCES);

	/* The path must end in NUL within PT_INTERP's bytes: else the program is not valid. */
	write_with_interp("unterminated", self_path, strlen(self_path), 0);
	int e = exec_error("./unterminated");
	if (e != ENOEXEC)
		fail("an unterminated interpreter path: execve gave %s, want ENOEXEC",
		     e < 0 ? "success" : errname(e));
}

/* A static executable at fixed addresses (not PIE, no interpreter): it can be one itself. */
static bool
self_is_fixed_static(void)
{
	size_t len;
	unsigned char *img = read_self_with_room(&len, 0);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + eh->e_phoff);
	bool fixed = eh->e_type == ET_EXEC;

	for (int i = 0; i < eh->e_phnum; i++)
		fixed = fixed && ph[i].p_type != PT_INTERP;
	free(img);
	return fixed;
}

/*
 * This program as the interpreter of a copy of itself whose entry point is
 * off by one byte: the kernel starts the interpreter (at the right entry),
 * which finds the program's entry in AT_ENTRY, no base (AT_BASE 0: an
 * ET_EXEC interpreter is not moved) and the program's name in AT_EXECFN.
 */
TEST(exec_interpreter_runs_first)
{
	if (!self_is_fixed_static())
		skip("this build is not a fixed-address static executable");
	size_t len;
	unsigned char *img = read_self_with_room(&len, 0);
	unsigned long entry = ((Elf64_Ehdr *)img)->e_entry + 1;
	free(img);

	write_with_interp("prog", self_path, strlen(self_path) + 1, 1);
	char want_entry[32], env_fd[64], *envp[] = { env_fd, NULL };
	snprintf(want_entry, sizeof(want_entry), "%lu", entry);
	char *argv[] = { "./prog", "--helper", "auxv", want_entry, "./prog", NULL };
	pid_t pid = xfork();
	if (pid == 0) {
		int fd = CHECK_OK(fcntl(test_report_fd, F_DUPFD, 20));
		snprintf(env_fd, sizeof(env_fd), "USERTESTS_REPORT_FD=%d", fd);
		execve("./prog", argv, envp);
		fail("execve(./prog) failed with %s", errname(errno));
	}
	expect_exit(pid, 0, "the interpreter checking its auxiliary vector");
}

int
helper_auxv(const char *entry, const char *execfn)
{
	const char *fn = (const char *)getauxval(AT_EXECFN);

	if (getauxval(AT_ENTRY) != strtoul(entry, NULL, 10))
		fail("AT_ENTRY %#lx, want the program's %#lx", getauxval(AT_ENTRY),
		     strtoul(entry, NULL, 10));
	if (getauxval(AT_BASE) != 0)
		fail("AT_BASE %#lx for an ET_EXEC interpreter, want 0", getauxval(AT_BASE));
	if (!fn || strcmp(fn, execfn) != 0)
		fail("AT_EXECFN \"%s\", want \"%s\"", fn ? fn : "(none)", execfn);
	if (getauxval(AT_PHENT) != sizeof(Elf64_Phdr) || getauxval(AT_PAGESZ) != 4096)
		fail("AT_PHENT %lu, AT_PAGESZ %lu", getauxval(AT_PHENT), getauxval(AT_PAGESZ));
	return 0;
}
