/*
 * exec.c - usertests: execve. The tests run this program again as a
 * helper (`usertests --helper NAME ARGS...`, run_helper()) to check what
 * crosses an exec: arguments, environment, fds, the pid. Malformed ELF
 * files, made from a copy of this program, must fail to run.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Names, in a helper's environment, the fd of the report pipe it inherits. */
#define HELPER_FD_ENV "USERTESTS_REPORT_FD"

/* Execs this program as a helper; the helper reports failures through our report pipe. */
void __attribute__((noreturn)) exec_helper(char *argv[])
{
	char env_fd[64];
	char *envp[] = { env_fd, "USERTESTS_MARK=exec", NULL };
	int fd = CHECK_OK(fcntl(test_report_fd, F_DUPFD, 20)); /* without FD_CLOEXEC */

	argv[0] = self_path;
	snprintf(env_fd, sizeof(env_fd), "%s=%d", HELPER_FD_ENV, fd);
	execve(self_path, argv, envp);
	fail("execve(%s) failed with %s", self_path, errname(errno));
}

/* Runs this program as a helper in a child; fails the test unless the child exits with code. */
static void
expect_helper_exit(char *argv[], int code, const char *what)
{
	pid_t pid = xfork();

	if (pid == 0)
		exec_helper(argv);
	expect_exit(pid, code, what);
}

TEST(exec_basic)
{
	char *argv[] = { "usertests", "--helper", "exit", "33", NULL };

	expect_helper_exit(argv, 33, "helper exit 33");
}

TEST(exec_keeps_rlimits)
{
	char *argv[] = { "usertests", "--helper", "rlimit", "99", "1234567", NULL };
	struct rlimit nofile, fsize;

	CHECK_OK(getrlimit(RLIMIT_NOFILE, &nofile));
	CHECK_OK(getrlimit(RLIMIT_FSIZE, &fsize));
	nofile.rlim_cur = 99;
	fsize.rlim_cur = 1234567;
	CHECK_OK(setrlimit(RLIMIT_NOFILE, &nofile));
	CHECK_OK(setrlimit(RLIMIT_FSIZE, &fsize));
	expect_helper_exit(argv, 0, "helper checking its limits");
}

/* Supplementary groups are the process's, kept by execve like its ids (Linux's cred). */
TEST(exec_keeps_supplementary_groups)
{
	static const gid_t list[2] = { 4242, 4243 };
	char *argv[] = { "usertests", "--helper", "ngroups", "2", NULL };

	if (geteuid() != 0)
		skip("needs root");
	pid_t pid = xfork();
	if (pid == 0) {
		CHECK_OK(setgroups(2, list));
		exec_helper(argv);
	}
	expect_exit(pid, 0, "helper counting its groups");
}

/* personality(2): 0xffffffff only asks; a fork child and an execve keep what was set. */
TEST(exec_keeps_the_personality)
{
	char *argv[] = { "usertests", "--helper", "personality", NULL };
	int old = CHECK_OK(personality(0xffffffff));

	CHECK_EQ(CHECK_OK(personality(old | ADDR_NO_RANDOMIZE)), old);
	CHECK_EQ(personality(0xffffffff), old | ADDR_NO_RANDOMIZE);
	expect_helper_exit(argv, 0, "helper checking its personality");
	CHECK_EQ(CHECK_OK(personality(old)), old | ADDR_NO_RANDOMIZE);
}

/*
 * An execve with an empty argv gives the program argv = { "" } (Linux 5.18
 * on): main() here answers 0 for exactly that, else 3.
 */
TEST(exec_empty_argv_gets_an_empty_argv0)
{
	char *argv[] = { NULL }, *envp[] = { NULL };
	pid_t pid = xfork();

	if (pid == 0) {
		execve(self_path, argv, envp);
		_exit(127);
	}
	expect_exit(pid, 0, "program run with an empty argv");
}

TEST(exec_chain)
{
	char *argv[] = { "usertests", "--helper", "chain", "6", NULL };

	expect_helper_exit(argv, 42, "six execs in a row");
}

TEST(exec_tree)
{
	char *argv[] = { "usertests", "--helper", "tree", "3", NULL };

	expect_helper_exit(argv, 8, "fork+exec tree of depth 3");
}

TEST(exec_args)
{
	static char big[5000];
	char *argv[] = { "usertests", "--helper", "args", "", "two words", big, "last", NULL };

	memset(big, 'x', sizeof(big) - 1);
	expect_helper_exit(argv, 0, "argv, envp and auxv check");
}

TEST(exec_fds)
{
	char *argv[] = { "usertests", "--helper", "fds", NULL, NULL, NULL };
	char a[16], b[16];
	int kept, closed;

	make_file("f", "0123456789", 10);
	kept = CHECK_OK(open("f", O_RDONLY));
	closed = CHECK_OK(open("f", O_RDONLY | O_CLOEXEC));
	CHECK_EQ(lseek(kept, 4, SEEK_SET), 4);
	snprintf(a, sizeof(a), "%d", kept);
	snprintf(b, sizeof(b), "%d", closed);
	argv[3] = a;
	argv[4] = b;
	expect_helper_exit(argv, 0, "fds across exec");
}

TEST(exec_keeps_pid)
{
	char *argv[] = { "usertests", "--helper", "pid", NULL, NULL, NULL };
	char mine[16], parent[16];
	pid_t pid = xfork();

	if (pid == 0) {
		snprintf(mine, sizeof(mine), "%d", getpid());
		snprintf(parent, sizeof(parent), "%d", getppid());
		argv[3] = mine;
		argv[4] = parent;
		exec_helper(argv);
	}
	expect_exit(pid, 0, "pid across exec");
}

/*
 * execve of path in a child; returns the errno it failed with, or -1 if it
 * did not fail (the child was replaced, then ended as *status says).
 *
 * The files tried are mostly broken copies of this program, so a kernel
 * that wrongly runs one runs us: the arguments must then make that copy
 * exit at once (HARMLESS_ARGS), not start the whole suite again.
 */
/* clang-format off */
#define HARMLESS_ARGS(path)	{ (char *)(path), "--helper", "exit", "0", NULL }
/* clang-format on */

static int
exec_errno(const char *path, char *const argv[], char *const envp[], int *status)
{
	pid_t pid = xfork();

	if (pid == 0) {
		syscall(SYS_execve, path, argv, envp);
		_exit(errno < 256 ? errno : 255);
	}
	*status = wait_status(pid);
	if (WIFEXITED(*status) && WEXITSTATUS(*status) > 0 && WEXITSTATUS(*status) < 256)
		return WEXITSTATUS(*status);
	return -1;
}

static void
expect_exec_fails(const char *path, int want, int also_ok)
{
	char *argv[] = HARMLESS_ARGS(path), *envp[] = { NULL };
	int status, e = exec_errno(path, argv, envp, &status);
	char how[64];

	if (e == want || (also_ok && e == also_ok))
		return;
	if (e < 0) {
		describe_status(status, how, sizeof(how));
		fail("execve(%s) did not fail: the process ran and %s; want %s", path, how,
		     errname(want));
	}
	fail("execve(%s) failed with %s, want %s", path, errname(e), errname(want));
}

unsigned char *
read_self(size_t *len)
{
	struct stat st;
	int fd = CHECK_OK(open(self_path, O_RDONLY));
	unsigned char *buf;

	CHECK_OK(fstat(fd, &st));
	buf = malloc(st.st_size);
	CHECK(buf != NULL);
	CHECK_EQ(read(fd, buf, st.st_size), st.st_size);
	close(fd);
	*len = st.st_size;
	return buf;
}

/* Writes image as an executable file. */
static void
write_exe(const char *name, const void *image, size_t len)
{
	close(create_file(name, image, len, 0755));
}

TEST(exec_enoexec)
{
	size_t len;
	unsigned char *self = read_self(&len), *img = malloc(len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	static const struct {
		const char *name;
		size_t off, size; /* field of the ELF header to overwrite */
		unsigned long value;
	} patches[] = {
		{ "bad-magic", 1, 1, 'X' },
		{ "bad-machine", offsetof(Elf64_Ehdr, e_machine), 2, 0x7777 },
		{ "bad-type-rel", offsetof(Elf64_Ehdr, e_type), 2, ET_REL },
		{ "bad-type-core", offsetof(Elf64_Ehdr, e_type), 2, ET_CORE },
		{ "bad-phentsize", offsetof(Elf64_Ehdr, e_phentsize), 2, 32 },
		{ "no-phdrs", offsetof(Elf64_Ehdr, e_phnum), 2, 0 },
		{ "too-many-phdrs", offsetof(Elf64_Ehdr, e_phnum), 2, 0xffff },
	};

	CHECK(img != NULL && len > sizeof(*eh));
	CHECK_EQ(memcmp(self, ELFMAG, SELFMAG), 0);
	write_exe("empty", "", 0);
	expect_exec_fails("./empty", ENOEXEC, 0);
	write_exe("text", "this is a text file, not a program\n", 35);
	expect_exec_fails("./text", ENOEXEC, 0);
	write_exe("truncated", self, EI_NIDENT);
	expect_exec_fails("./truncated", ENOEXEC, 0);
	for (unsigned i = 0; i < sizeof(patches) / sizeof(patches[0]); i++) {
		memcpy(img, self, len);
		memcpy(img + patches[i].off, &patches[i].value, patches[i].size);
		write_exe(patches[i].name, img, len);
		char path[64];

		snprintf(path, sizeof(path), "./%s", patches[i].name);
		expect_exec_fails(path, ENOEXEC, 0);
	}
	/*
	 * Program headers past the end of the file: Linux reports its short
	 * read of them as EIO; ENOEXEC says the same.
	 */
	memcpy(img, self, sizeof(*eh));
	eh->e_phoff = 4 * PAGE;
	write_exe("phdrs-past-end", img, sizeof(*eh));
	expect_exec_fails("./phdrs-past-end", ENOEXEC, EIO);
	free(img);
	free(self);
}

/* Runs path with argv and no environment; fails the test unless it ran and exited 0. */
static void
expect_runs_with(const char *path, char *const argv[], const char *what)
{
	char *envp[] = { NULL };
	int status, e = exec_errno(path, argv, envp, &status);

	if (e > 0)
		fail("%s: execve failed with %s", what, errname(e));
	expect_exited(status, 0, what);
}

/*
 * A program of a few instructions (exit(0)) with its one PT_LOAD mapping
 * the whole file, whose program headers are at file offset phoff.
 */
static void
write_tiny_exe(const char *name, size_t phoff)
{
	static const unsigned char exit0[] = { 0xb8, 60,   0, 0, 0, /* mov $60, %eax */
					       0x31, 0xff,	    /* xor %edi, %edi */
					       0x0f, 0x05 };	    /* syscall */
	size_t len = phoff + sizeof(Elf64_Phdr);
	unsigned char *img = calloc(1, len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + phoff);

	CHECK(img != NULL);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = 0x400000 + 0x80;
	eh->e_phoff = phoff;
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 1;
	memcpy(img + 0x80, exit0, sizeof(exit0));
	ph->p_type = PT_LOAD;
	ph->p_flags = PF_R | PF_X;
	ph->p_vaddr = ph->p_paddr = 0x400000;
	ph->p_filesz = ph->p_memsz = len;
	ph->p_align = PAGE;
	write_exe(name, img, len);
	free(img);
}

/* Program headers are read wherever e_phoff puts them, not only in the first page (row 15). */
TEST(exec_phdrs_anywhere)
{
	char *argv[] = { NULL, NULL };

	write_tiny_exe("phdrs-first-page", 0x100);
	argv[0] = "./phdrs-first-page";
	expect_runs_with(argv[0], argv, "program headers in the first page");
	write_tiny_exe("phdrs-at-8k", 2 * PAGE + 8);
	argv[0] = "./phdrs-at-8k";
	expect_runs_with(argv[0], argv, "program headers at 8 KiB");
}

/*
 * The arguments and environment may take a quarter of RLIMIT_STACK (at
 * least 128 KiB), each string up to 128 KiB with its NUL, whatever their
 * number (Linux's; docs/robustness.md, review 2 row 15).
 */
TEST(exec_big_arguments)
{
	enum { MANY = 5000, BIG = 100 * 1024, STRLEN_MAX = 32 * PAGE };
	char **argv = calloc(MANY + 8, sizeof(char *)), *big = malloc(STRLEN_MAX + 1);
	char *envp[] = { NULL };
	int status;

	CHECK(argv != NULL && big != NULL);
	argv[0] = self_path;
	argv[1] = "--helper";
	argv[2] = "exit";
	argv[3] = "0";
	for (int i = 0; i < MANY; i++)
		argv[4 + i] = "x";
	expect_runs_with(self_path, argv, "5000 one-byte arguments");

	memset(big, 'y', STRLEN_MAX);
	big[BIG] = '\0';
	argv[4] = argv[5] = big;
	argv[6] = NULL;
	expect_runs_with(self_path, argv, "two 100 KiB arguments");
	big[BIG] = 'y';
	big[STRLEN_MAX - 1] = '\0';
	argv[5] = NULL;
	expect_runs_with(self_path, argv, "the longest argument");
	big[STRLEN_MAX - 1] = 'y';
	big[STRLEN_MAX] = '\0';
	CHECK_EQ(exec_errno(self_path, argv, envp, &status), E2BIG); /* one byte longer */

	/* RLIMIT_STACK 1 MiB: 256 KiB of arguments at most. */
	struct rlimit small = { 1 << 20, 1 << 20 };
	CHECK_OK(setrlimit(RLIMIT_STACK, &small));
	big[BIG] = '\0';
	argv[4] = argv[5] = argv[6] = big;
	argv[7] = NULL;
	CHECK_EQ(exec_errno(self_path, argv, envp, &status), E2BIG);
	argv[6] = NULL;
	expect_runs_with(self_path, argv, "200 KiB of arguments under a 1 MiB stack limit");
	free(big);
	free(argv);
}

/*
 * Under a 32 MiB RLIMIT_STACK the arguments may take 6 MiB (Linux caps a
 * quarter of the limit at 3/4 of its 8 MiB default stack): 5 MiB of them
 * run, beyond the largest block the kernel's page allocator hands out; 6.5
 * MiB is E2BIG, never ENOMEM (docs/robustness.md, review 2 row 15).
 */
TEST(exec_arguments_up_to_6mib)
{
	enum { STRLEN_MAX = 32 * PAGE, FITS = 40, TOO_MANY = 52 };
	char **argv = calloc(TOO_MANY + 8, sizeof(char *)), *big = malloc(STRLEN_MAX);
	struct rlimit large, old;
	char *envp[] = { NULL };
	int status;

	CHECK(argv != NULL && big != NULL);
	CHECK_OK(getrlimit(RLIMIT_STACK, &old));
	large = (struct rlimit){ 32 << 20, old.rlim_max };
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max < large.rlim_cur)
		skip("the hard RLIMIT_STACK is below 32 MiB here");
	CHECK_OK(setrlimit(RLIMIT_STACK, &large));
	memset(big, 'z', STRLEN_MAX - 1);
	big[STRLEN_MAX - 1] = '\0';
	argv[0] = self_path;
	argv[1] = "--helper";
	argv[2] = "exit";
	argv[3] = "0";
	for (int i = 0; i < TOO_MANY; i++)
		argv[4 + i] = big;
	CHECK_EQ(exec_errno(self_path, argv, envp, &status), E2BIG);
	argv[4 + FITS] = NULL;
	expect_runs_with(self_path, argv, "5 MiB of arguments under a 32 MiB stack limit");
	CHECK_OK(setrlimit(RLIMIT_STACK, &old));
	free(big);
	free(argv);
}

/*
 * Executables whose header is fine but whose segments are not: Linux finds
 * some of these only after the old program is gone and then kills the
 * process. Either way the program must not run, and the kernel goes on.
 */
TEST(exec_bad_segments)
{
	size_t len;
	unsigned char *self = read_self(&len), *img = malloc(len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	static const char *const names[] = {
		"kernel-segment",
		"segment-past-eof",
		"entry-unmapped",
		"filesz-gt-memsz",
	};

	CHECK(img != NULL);
	for (unsigned i = 0; i < 4; i++) {
		Elf64_Phdr *ph, *load = NULL;

		memcpy(img, self, len);
		ph = (Elf64_Phdr *)(img + eh->e_phoff);
		for (int k = eh->e_phnum - 1; k >= 0; k--)
			if (ph[k].p_type == PT_LOAD && (ph[k].p_flags & PF_X))
				load = &ph[k];
		CHECK(load != NULL);
		if (i == 0)
			load->p_vaddr = load->p_paddr =
				0xffff800000000000UL + (load->p_vaddr & 0xfff);
		else if (i == 1)
			load->p_offset += 0x10000000;
		else if (i == 2)
			eh->e_entry = 0x10;
		else
			load->p_filesz = load->p_memsz + 0x100000;
		write_exe(names[i], img, len);

		char path[64], *argv[] = HARMLESS_ARGS(path), *envp[] = { NULL };
		int status, e;

		snprintf(path, sizeof(path), "./%s", names[i]);
		e = exec_errno(path, argv, envp, &status);
		if (e < 0 && !WIFSIGNALED(status))
			fail("%s: the program ran and exited with %d", names[i],
			     WEXITSTATUS(status));
	}
	free(img);
	free(self);
}

/* execve(path) runs it: the harmless arguments make the copy exit 0 at once. */
static void
expect_exec_runs(const char *path)
{
	char *argv[] = HARMLESS_ARGS(path), *envp[] = { NULL };
	int status, e = exec_errno(path, argv, envp, &status);

	if (e > 0)
		fail("execve(%s) failed with %s as uid %d", path, errname(e), (int)geteuid());
	expect_exited(status, 0, path);
}

/*
 * As nobody, in a directory of root's programs: "private" (0700) is not
 * for it, "unreadable" (0711) runs though it cannot be read, and
 * "hidden/program" (0755) is out of reach behind a 0700 directory.
 */
static void
exec_checks_as_nobody(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/private", dir);
	expect_exec_fails(path, EACCES, 0);
	snprintf(path, sizeof(path), "%s/unreadable", dir);
	CHECK_ERR(EACCES, open(path, O_RDONLY));
	expect_exec_runs(path);
	snprintf(path, sizeof(path), "%s/hidden/program", dir);
	expect_exec_fails(path, EACCES, 0);
}

/* Execution takes the x bit of the caller's class, and search permission on the way (Linux's may_open with MAY_EXEC). */
TEST(exec_needs_execute_permission)
{
	char dir[64], path[128];
	size_t len;

	if (geteuid() != 0)
		skip("needs root");
	unsigned char *self = read_self(&len);
	snprintf(dir, sizeof(dir), "/tmp/exec_perm_%d", getpid());
	CHECK_OK(mkdir(dir, 0755));
	const char *names[] = { "private", "unreadable", "hidden/program" };
	const mode_t modes[] = { 0700, 0711, 0755 };
	snprintf(path, sizeof(path), "%s/hidden", dir);
	CHECK_OK(mkdir(path, 0700));
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		close(create_file(path, self, len, modes[i]));
		CHECK_OK(chmod(path, modes[i])); /* past the umask */
		expect_exec_runs(path);		 /* root runs anything with an x bit */
	}
	free(self);
	as_nobody(exec_checks_as_nobody, dir);
	for (int i = 2; i >= 0; i--) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		CHECK_OK(unlink(path));
	}
	snprintf(path, sizeof(path), "%s/hidden", dir);
	CHECK_OK(rmdir(path));
	CHECK_OK(rmdir(dir));
}

TEST(exec_errors)
{
	char *argv[] = HARMLESS_ARGS(self_path), *envp[] = { NULL };
	int status;

	make_file("plain", "x", 1);
	CHECK_OK(mkdir("dir", 0755));
	expect_exec_fails("./missing", ENOENT, 0);
	expect_exec_fails("./dir", EACCES, 0);
	expect_exec_fails("./plain/x", ENOTDIR, 0);
	/* Without an execute bit nothing runs, not even for root: EACCES before the format. */
	expect_exec_fails("./plain", EACCES, 0);
	CHECK_OK(chmod("plain", 0755));
	expect_exec_fails("./plain", ENOEXEC, 0);
	size_t len;
	unsigned char *self = read_self(&len);
	close(create_file("self-copy", self, len, 0644));
	free(self);
	expect_exec_fails("./self-copy", EACCES, 0);
	for (unsigned i = 0; i < NBAD; i++) {
		CHECK_EQ(exec_errno((char *)bad_addrs[i], argv, envp, &status), EFAULT);
		CHECK_EQ(exec_errno(self_path, (char **)bad_addrs[i], envp, &status), EFAULT);
		CHECK_EQ(exec_errno(self_path, argv, (char **)bad_addrs[i], &status), EFAULT);
		char *bad_argv[] = { self_path, "--helper", (char *)bad_addrs[i], NULL };

		CHECK_EQ(exec_errno(self_path, bad_argv, envp, &status), EFAULT);
	}
}

/*
 * A file some process runs from cannot be written or truncated, even by
 * root (ETXTBSY): its pages are the program's text. Nor can a file open for
 * writing be run. The denial lasts while the program's mappings exist.
 */
TEST(exec_text_busy)
{
	size_t len;
	unsigned char *image = read_self(&len);
	int ready[2];
	char fdarg[16], c;

	write_exe("busy", image, len);
	free(image);
	CHECK_OK(pipe(ready));
	snprintf(fdarg, sizeof(fdarg), "%d", ready[1]);
	pid_t pid = xfork();
	if (pid == 0) {
		char *argv[] = { "busy", "--helper", "ready", fdarg, NULL }, *envp[] = { NULL };
		close(ready[0]);
		execve("busy", argv, envp);
		_exit(100);
	}
	close(ready[1]);
	CHECK_EQ(read(ready[0], &c, 1), 1); /* it runs: "busy" is its text */
	CHECK_ERR(ETXTBSY, open("busy", O_WRONLY));
	CHECK_ERR(ETXTBSY, open("busy", O_RDWR));
	CHECK_ERR(ETXTBSY, open("busy", O_RDONLY | O_TRUNC));
	CHECK_ERR(ETXTBSY, truncate("busy", 0));
	CHECK_ERR(ETXTBSY, truncate("busy", 1));
	int rfd = CHECK_OK(open("busy", O_RDONLY)); /* reading is fine */
	CHECK(read(rfd, &c, 1) == 1 && c == 0x7f);
	CHECK_ERR(EINVAL, ftruncate(rfd, 0));
	close(rfd);
	/* A forked copy of the running program holds the file too. */
	CHECK_OK(kill(pid, SIGKILL));
	expect_signaled(wait_status(pid), SIGKILL, "the running copy");
	close(ready[0]);
	/* Its mappings are gone: the file may be written again, and then not run. */
	int wfd = CHECK_OK(open("busy", O_WRONLY));
	char *argv[] = HARMLESS_ARGS("busy"), *envp[] = { NULL };
	int status, e = exec_errno("busy", argv, envp, &status);
	if (e != ETXTBSY)
		fail("execve of a file open for writing: %s, want ETXTBSY",
		     e < 0 ? "it ran" : errname(e));
	close(wfd);
	CHECK_OK(truncate("busy", 0));
}

/* === helpers: this program exec'd by the tests above ====================== */

/* tree N: two children each exec tree N-1; exits with the number of leaves. */
static int
helper_tree(int n)
{
	char arg[16], *argv[] = { self_path, "--helper", "tree", arg, NULL };
	int leaves = 0;

	if (n == 0)
		return 1;
	snprintf(arg, sizeof(arg), "%d", n - 1);
	pid_t kids[2];

	for (int i = 0; i < 2; i++) {
		kids[i] = xfork();
		if (kids[i] == 0) {
			execv(self_path, argv);
			fail("tree %d: execv failed with %s", n, errname(errno));
		}
	}
	for (int i = 0; i < 2; i++) {
		int status = wait_status(kids[i]);

		if (!WIFEXITED(status))
			fail("tree %d: a child did not exit normally", n);
		leaves += WEXITSTATUS(status);
	}
	return leaves;
}

static int
helper_args(int argc, char **argv)
{
	extern char **environ;
	int nenv = 0;

	if (argc != 5)
		fail("args: argc %d, want 5 after --helper args", argc + 2);
	if (strcmp(argv[1], "") || strcmp(argv[2], "two words") || strcmp(argv[4], "last"))
		fail("args: an argument changed on the way");
	if (strlen(argv[3]) != 4999 || strspn(argv[3], "x") != 4999)
		fail("args: the 5000-byte argument changed on the way");
	if (argv[argc] != NULL)
		fail("args: argv is not NULL-terminated");
	for (char **e = environ; *e; e++)
		nenv++;
	if (nenv != 2 || !getenv("USERTESTS_MARK") || strcmp(getenv("USERTESTS_MARK"), "exec"))
		fail("args: environment has %d entries, want exactly the 2 given", nenv);
	return 0;
}

static int
helper_fds(int kept, int closed)
{
	char buf[8];

	if (fcntl(closed, F_GETFD) != -1 || errno != EBADF)
		fail("fds: the O_CLOEXEC fd %d survived execve", closed);
	if (fcntl(kept, F_GETFD) != 0)
		fail("fds: fd %d was lost or is close-on-exec", kept);
	if (lseek(kept, 0, SEEK_CUR) != 4 || read(kept, buf, 3) != 3 || memcmp(buf, "456", 3))
		fail("fds: fd %d lost its file offset", kept);
	return 0;
}

/* The limits a program starts with are those its exec'ing process had. */
static int
helper_rlimit(long nofile, long fsize)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) || (long)r.rlim_cur != nofile)
		fail("rlimit: RLIMIT_NOFILE is %ld after execve, want %ld", (long)r.rlim_cur,
		     nofile);
	if (getrlimit(RLIMIT_FSIZE, &r) || (long)r.rlim_cur != fsize)
		fail("rlimit: RLIMIT_FSIZE is %ld after execve, want %ld", (long)r.rlim_cur, fsize);
	return 0;
}

int
run_helper(int argc, char **argv)
{
	const char *fd = getenv(HELPER_FD_ENV);

	if (fd)
		test_report_fd = atoi(fd);
	if (argc >= 2 && !strcmp(argv[0], "exit"))
		return atoi(argv[1]);
	if (argc >= 2 && !strcmp(argv[0], "chain"))
		return helper_chain(atoi(argv[1]), false);
	if (argc >= 2 && !strcmp(argv[0], "threaded_chain"))
		return helper_chain(atoi(argv[1]), true);
	if (argc >= 2 && !strcmp(argv[0], "tree"))
		return helper_tree(atoi(argv[1]));
	if (argc >= 1 && !strcmp(argv[0], "args"))
		return helper_args(argc, argv);
	if (argc >= 3 && !strcmp(argv[0], "rlimit"))
		return helper_rlimit(atol(argv[1]), atol(argv[2]));
	if (argc >= 3 && !strcmp(argv[0], "fds"))
		return helper_fds(atoi(argv[1]), atoi(argv[2]));
	if (argc >= 3 && !strcmp(argv[0], "auxv"))
		return helper_auxv(argv[1], argv[2]);
	if (argc >= 2 && !strcmp(argv[0], "ngroups"))
		return getgroups(0, NULL) == atoi(argv[1]) ? 0 : 1;
	if (argc >= 2 && !strcmp(argv[0], "caps"))
		return helper_caps(argv[1]);
	if (argc >= 2 && !strcmp(argv[0], "dumpable"))
		return prctl(PR_GET_DUMPABLE) == atoi(argv[1]) ? 0 : 1;
	if (argc >= 1 && !strcmp(argv[0], "personality"))
		return personality(0xffffffff) & ADDR_NO_RANDOMIZE ? 0 : 1;
	if (argc >= 2 && !strcmp(argv[0], "alone"))
		return helper_alone(argv[1]);
	if (argc >= 2 && !strcmp(argv[0], "landlocked"))
		return helper_landlocked(argv[1]);
	if (argc >= 3 && !strcmp(argv[0], "timerfd_sleeps"))
		return helper_timerfd_sleeps(atoi(argv[1]), atol(argv[2]),
					     argc >= 4 ? atoi(argv[3]) : -1);
	if (argc >= 3 && !strcmp(argv[0], "own_child"))
		return helper_own_child(atoi(argv[1]), atoi(argv[2]));
	/* Tells the test it runs, then waits: to be killed, or for EOF on the fd in argv[2]. */
	if (argc >= 2 && !strcmp(argv[0], "ready")) {
		char c;
		if (write(atoi(argv[1]), "r", 1) != 1)
			return 1;
		if (argc >= 3) {
			while (read(atoi(argv[2]), &c, 1) > 0)
				;
			return 0;
		}
		for (;;)
			pause();
	}
	if (argc >= 3 && !strcmp(argv[0], "pid")) {
		if (getpid() != atoi(argv[1]) || getppid() != atoi(argv[2]))
			fail("pid: now %d (parent %d), before execve %s (parent %s)", getpid(),
			     getppid(), argv[1], argv[2]);
		return 0;
	}
	fail("unknown helper '%s'", argc ? argv[0] : "");
}
