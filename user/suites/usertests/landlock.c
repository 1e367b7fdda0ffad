/*
 * landlock.c - usertests: Landlock, the sandbox a process puts itself in
 * (kernel/landlock/, docs/landlock.md). The three calls' errors as Linux
 * 6.1 gives them, each file-system right allowed beneath a rule's
 * directory and denied elsewhere, layers that only narrow, reparenting
 * with and without LANDLOCK_ACCESS_FS_REFER, a domain kept across fork
 * and execve, and no_new_privs, without which only CAP_SYS_ADMIN may
 * restrict itself. Each test restricts its own child, never the runner.
 * The host's kernel must have Landlock (ABI 2 or later); the tests skip
 * without it.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "uapi/landlock.h" /* libc has no Landlock header */
#include "uapi/rename.h"

#define ACCESS_ABI2 ((LANDLOCK_ACCESS_FS_REFER << 1) - 1) /* every right of ABI 1 and 2 */

static long
create_ruleset(const void *attr, size_t size, uint32_t flags)
{
	return syscall(SYS_landlock_create_ruleset, attr, size, flags);
}

static long
add_rule(int ruleset, int type, const void *attr, uint32_t flags)
{
	return syscall(SYS_landlock_add_rule, ruleset, type, attr, flags);
}

static long
restrict_self(int ruleset, uint32_t flags)
{
	return syscall(SYS_landlock_restrict_self, ruleset, flags);
}

static void
need_landlock(void)
{
	long abi = create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	if (abi < 0)
		skip("no Landlock in this kernel (%s)", errname(errno));
	if (abi < 2)
		skip("Landlock ABI %ld, these tests need 2", abi);
}

static void
allow_beneath(int ruleset, const char *path, uint64_t allowed)
{
	struct landlock_path_beneath_attr rule = { allowed, CHECK_OK(open(path, O_PATH)) };

	CHECK_OK(add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	close(rule.parent_fd);
}

/* A ruleset handling handled, with the rule allowing allowed beneath path (if not NULL). */
static int
ruleset_with(uint64_t handled, const char *path, uint64_t allowed)
{
	struct landlock_ruleset_attr attr = { .handled_access_fs = handled };
	int fd = (int)CHECK_OK(create_ruleset(&attr, sizeof(attr), 0));

	if (path)
		allow_beneath(fd, path, allowed);
	return fd;
}

static void
restrict_to(int ruleset)
{
	CHECK_OK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	CHECK_OK(restrict_self(ruleset, 0));
	close(ruleset);
}

/* Restricts the calling process to ruleset_with's layer, as an unprivileged program would. */
static void
sandbox(uint64_t handled, const char *path, uint64_t allowed)
{
	restrict_to(ruleset_with(handled, path, allowed));
}

/* The same with rules on the directories "a" and "b" of the reparenting tests. */
static void
sandbox_a_b(uint64_t handled, uint64_t in_a, uint64_t in_b)
{
	int fd = ruleset_with(handled, "a", in_a);

	allow_beneath(fd, "b", in_b);
	restrict_to(fd);
}

/* The program interpreter (PT_INTERP) an ELF image names, or NULL for a static one. */
static const char *
interpreter_of(const unsigned char *image, size_t len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;

	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph =
			(const Elf64_Phdr *)(image + eh->e_phoff + (size_t)i * eh->e_phentsize);
		if (ph->p_type == PT_INTERP && ph->p_offset + ph->p_filesz <= len)
			return (const char *)image + ph->p_offset;
	}
	return NULL;
}

/* The test's directories: "in" gets the rules, "out" none; each holds a file "f". */
static void
make_tree(void)
{
	CHECK_OK(mkdir("in", 0755));
	CHECK_OK(mkdir("out", 0755));
	make_file("in/f", "data", 4);
	make_file("out/f", "data", 4);
}

TEST(landlock_abi_version)
{
	need_landlock();
	long abi = create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	if (on_rewind())
		CHECK_EQ(abi, 2);
	CHECK_ERR(EINVAL, create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION | 1u << 31));
	CHECK_ERR(EINVAL, create_ruleset(NULL, 1, LANDLOCK_CREATE_RULESET_VERSION));
}

TEST(landlock_create_ruleset_errors)
{
	struct {
		struct landlock_ruleset_attr attr;
		uint64_t tail;
	} big = { { LANDLOCK_ACCESS_FS_READ_FILE }, 0 };
	const uint32_t unknown_flag = 1u << 31; /* later ABIs define the low flags */

	need_landlock();
	CHECK_ERR(EINVAL, create_ruleset(&big, sizeof(big.attr) - 1, 0));
	CHECK_ERR(EINVAL, create_ruleset(&big, sizeof(big.attr), unknown_flag));
	CHECK_ERR(E2BIG, create_ruleset(&big, PAGE + 1, 0));
	CHECK_ERR(EFAULT, create_ruleset(NULL, sizeof(big.attr), 0));
	close((int)CHECK_OK(create_ruleset(&big, sizeof(big), 0))); /* a zero tail is fine */
	/* Not past the end of a later ABI's structure: the last byte of a page. */
	unsigned char *page = map_anon(PAGE, PROT_READ | PROT_WRITE);
	memcpy(page, &big.attr, sizeof(big.attr));
	close((int)CHECK_OK(create_ruleset(page, PAGE, 0)));
	page[PAGE - 1] = 1;
	CHECK_ERR(E2BIG, create_ruleset(page, PAGE, 0));
	big.attr.handled_access_fs = 1ull << 63;
	CHECK_ERR(EINVAL, create_ruleset(&big.attr, sizeof(big.attr), 0));
	big.attr.handled_access_fs = 0;
	CHECK_ERR(ENOMSG, create_ruleset(&big.attr, sizeof(big.attr), 0));
	int fd = ruleset_with(ACCESS_ABI2, NULL, 0);
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

TEST(landlock_add_rule_errors)
{
	need_landlock();
	make_tree();
	int fd = ruleset_with(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR, NULL, 0);
	int file = CHECK_OK(open("in/f", O_RDONLY)), pipes[2];
	CHECK_OK(pipe(pipes));
	struct landlock_path_beneath_attr rule = { LANDLOCK_ACCESS_FS_READ_FILE,
						   CHECK_OK(open("in", O_PATH)) };

	CHECK_ERR(EINVAL, add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 1));
	CHECK_ERR(EBADF, add_rule(-1, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	CHECK_ERR(EBADFD, add_rule(file, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	CHECK_ERR(EINVAL, add_rule(fd, 0, &rule, 0));
	CHECK_ERR(EFAULT, add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, NULL, 0));
	rule.allowed_access = 0;
	CHECK_ERR(ENOMSG, add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	rule.allowed_access = LANDLOCK_ACCESS_FS_EXECUTE; /* not handled */
	CHECK_ERR(EINVAL, add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	rule.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE;
	CHECK_OK(add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	CHECK_OK(add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0)); /* again: merged */
	int parent = rule.parent_fd;
	rule.parent_fd = -1;
	CHECK_ERR(EBADF, add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	rule.parent_fd = pipes[0];
	CHECK_ERR(EBADFD, add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	rule.parent_fd = fd;
	CHECK_ERR(EBADFD, add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	/* A file takes only a file's rights: reading a directory is not one. */
	rule.parent_fd = file;
	CHECK_OK(add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	rule.allowed_access = LANDLOCK_ACCESS_FS_READ_DIR;
	CHECK_ERR(EINVAL, add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
	close(parent);
	close(file);
	close(fd);
}

TEST(landlock_restrict_self_errors)
{
	need_landlock();
	int fd = ruleset_with(LANDLOCK_ACCESS_FS_EXECUTE, NULL, 0);
	int file = CHECK_OK(open(self_path, O_RDONLY));

	CHECK_ERR(EINVAL, restrict_self(fd, 1u << 31)); /* later ABIs define the low flags */
	CHECK_ERR(EBADF, restrict_self(-1, 0));
	CHECK_ERR(EBADFD, restrict_self(file, 0));
	/* Sixteen layers stack, the seventeenth is too many. */
	for (int i = 0; i < 16; i++)
		CHECK_OK(restrict_self(fd, 0));
	CHECK_ERR(E2BIG, restrict_self(fd, 0));
	close(file);
	close(fd);
}

TEST(no_new_privs_prctl)
{
	CHECK_EQ(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 0);
	CHECK_ERR(EINVAL, prctl(PR_SET_NO_NEW_PRIVS, 2, 0, 0, 0));
	CHECK_ERR(EINVAL, prctl(PR_SET_NO_NEW_PRIVS, 1, 1, 0, 0));
	CHECK_ERR(EINVAL, prctl(PR_GET_NO_NEW_PRIVS, 1, 0, 0, 0));
	CHECK_OK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	CHECK_EQ(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 1);
	pid_t pid = xfork();
	if (pid == 0)
		_exit(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? 0 : 1);
	expect_exit(pid, 0, "a child keeps no_new_privs");
}

/* As nobody: restricting oneself needs no_new_privs first (EPERM), then works (path: unwritable). */
static void
restrict_as_nobody(const char *path)
{
	int fd = ruleset_with(LANDLOCK_ACCESS_FS_WRITE_FILE, NULL, 0);

	CHECK_ERR(EPERM, restrict_self(fd, 0));
	CHECK_OK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	CHECK_OK(restrict_self(fd, 0));
	CHECK_ERR(EACCES, open(path, O_WRONLY));
}

TEST(landlock_restrict_needs_no_new_privs)
{
	need_landlock();
	if (geteuid() != 0)
		skip("needs root to become nobody");
	as_nobody(restrict_as_nobody, "/dev/null");
}

/* One right's call in dir: 0, or the errno it failed with. */
static int
try_right(uint64_t right, const char *dir)
{
	const char *made = path_under(dir, "new");
	long ret = 0;

	switch (right) {
	case LANDLOCK_ACCESS_FS_READ_FILE:
		ret = open(path_under(dir, "f"), O_RDONLY);
		break;
	case LANDLOCK_ACCESS_FS_WRITE_FILE:
		ret = open(path_under(dir, "f"), O_WRONLY);
		break;
	case LANDLOCK_ACCESS_FS_READ_DIR:
		ret = open(dir, O_RDONLY | O_DIRECTORY);
		break;
	case LANDLOCK_ACCESS_FS_REMOVE_FILE:
		return unlink(path_under(dir, "f")) ? errno : 0;
	case LANDLOCK_ACCESS_FS_REMOVE_DIR:
		return rmdir(path_under(dir, "d")) ? errno : 0;
	case LANDLOCK_ACCESS_FS_MAKE_DIR:
		return mkdir(made, 0755) ? errno : 0;
	case LANDLOCK_ACCESS_FS_MAKE_REG:
		ret = open(made, O_CREAT | O_EXCL | O_WRONLY, 0644);
		break;
	case LANDLOCK_ACCESS_FS_MAKE_SYM:
		return symlink("f", made) ? errno : 0;
	case LANDLOCK_ACCESS_FS_MAKE_FIFO:
		return mknod(made, S_IFIFO | 0644, 0) ? errno : 0;
	case LANDLOCK_ACCESS_FS_MAKE_SOCK:
		return mknod(made, S_IFSOCK | 0644, 0) ? errno : 0;
	case LANDLOCK_ACCESS_FS_MAKE_CHAR:
		return mknod(made, S_IFCHR | 0644, makedev(1, 3)) ? errno : 0;
	case LANDLOCK_ACCESS_FS_MAKE_BLOCK:
		return mknod(made, S_IFBLK | 0644, makedev(7, 0)) ? errno : 0;
	}
	if (ret < 0)
		return errno;
	close((int)ret);
	return 0;
}

/*
 * Each right, alone in a layer with a rule beneath "in": its call works
 * there (and when written, a right that needs writing also works for the
 * file's own write: MAKE_REG's open for writing is WRITE_FILE, not
 * handled), and fails with EACCES in "out". The rights that the layer does
 * not handle stay free.
 */
TEST(landlock_each_right_beneath_its_rule)
{
	static const struct {
		uint64_t right;
		const char *name;
	} rights[] = {
		{ LANDLOCK_ACCESS_FS_READ_FILE, "READ_FILE" },
		{ LANDLOCK_ACCESS_FS_WRITE_FILE, "WRITE_FILE" },
		{ LANDLOCK_ACCESS_FS_READ_DIR, "READ_DIR" },
		{ LANDLOCK_ACCESS_FS_REMOVE_FILE, "REMOVE_FILE" },
		{ LANDLOCK_ACCESS_FS_REMOVE_DIR, "REMOVE_DIR" },
		{ LANDLOCK_ACCESS_FS_MAKE_DIR, "MAKE_DIR" },
		{ LANDLOCK_ACCESS_FS_MAKE_REG, "MAKE_REG" },
		{ LANDLOCK_ACCESS_FS_MAKE_SYM, "MAKE_SYM" },
		{ LANDLOCK_ACCESS_FS_MAKE_FIFO, "MAKE_FIFO" },
		{ LANDLOCK_ACCESS_FS_MAKE_SOCK, "MAKE_SOCK" },
		{ LANDLOCK_ACCESS_FS_MAKE_CHAR, "MAKE_CHAR" },
		{ LANDLOCK_ACCESS_FS_MAKE_BLOCK, "MAKE_BLOCK" },
	};

	need_landlock();
	if (geteuid() != 0)
		skip("needs root for the device nodes");
	for (size_t i = 0; i < sizeof(rights) / sizeof(rights[0]); i++) {
		char round[16];
		snprintf(round, sizeof(round), "%zu", i);
		CHECK_OK(mkdir(round, 0755));
		CHECK_OK(chdir(round));
		make_tree();
		CHECK_OK(mkdir("in/d", 0755));
		CHECK_OK(mkdir("out/d", 0755));
		pid_t pid = xfork();
		if (pid == 0) {
			uint64_t right = rights[i].right;
			sandbox(right, "in", right);
			int in = try_right(right, "in"), out = try_right(right, "out");
			if (in || out != EACCES)
				fail("%s: %s in its rule's directory, %s outside (want 0, EACCES)",
				     rights[i].name, errname(in), errname(out));
			/* Another right, not handled, stays free outside. */
			uint64_t other = right == LANDLOCK_ACCESS_FS_READ_FILE
						 ? LANDLOCK_ACCESS_FS_READ_DIR
						 : LANDLOCK_ACCESS_FS_READ_FILE;
			CHECK_EQ(try_right(other, "out"), 0);
			_exit(0);
		}
		expect_exit(pid, 0, rights[i].name);
		CHECK_OK(chdir(".."));
	}
}

/* execve asks EXECUTE (and READ_FILE, when handled) of the program. */
TEST(landlock_execute_right)
{
	size_t len;
	unsigned char *image = read_self(&len);

	need_landlock();
	make_tree();
	close(create_file("in/prog", image, len, 0755));
	close(create_file("out/prog", image, len, 0755));
	const char *interp = interpreter_of(image, len);
	pid_t pid = xfork();
	if (pid == 0) {
		int ruleset =
			ruleset_with(LANDLOCK_ACCESS_FS_EXECUTE, "in", LANDLOCK_ACCESS_FS_EXECUTE);
		if (interp) /* ld.so is opened for execution too, and needs the right as on Linux */
			allow_beneath(ruleset, interp, LANDLOCK_ACCESS_FS_EXECUTE);
		restrict_to(ruleset);
		char *argv[] = { "usertests", "--helper", "exit", "7", NULL };
		execve("out/prog", argv, (char *[]){ NULL });
		CHECK_EQ(errno, EACCES);
		execve("in/prog", argv, (char *[]){ NULL });
		fail("execve beneath the rule failed with %s", errname(errno));
	}
	expect_exit(pid, 7, "the program beneath the rule");
}

/* O_PATH opens, stat and chdir ask nothing; a rule on a file allows that file only. */
TEST(landlock_path_only_and_file_rules)
{
	struct stat st;

	need_landlock();
	make_tree();
	make_file("in/g", "data", 4);
	pid_t pid = xfork();
	if (pid == 0) {
		sandbox(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR, "in/f",
			LANDLOCK_ACCESS_FS_READ_FILE);
		close(CHECK_OK(open("out/f", O_PATH)));
		CHECK_OK(stat("out/f", &st));
		close(CHECK_OK(open("in/f", O_RDONLY)));
		CHECK_ERR(EACCES, open("in/g", O_RDONLY));
		CHECK_ERR(EACCES, open("in", O_RDONLY | O_DIRECTORY));
		CHECK_OK(chdir("out"));
		_exit(0);
	}
	expect_exit(pid, 0, "the sandboxed child");
}

/* A second layer only narrows: what either layer denies stays denied. */
TEST(landlock_layers_intersect)
{
	need_landlock();
	make_tree();
	CHECK_OK(mkdir("in/sub", 0755));
	make_file("in/sub/f", "data", 4);
	pid_t pid = xfork();
	if (pid == 0) {
		sandbox(LANDLOCK_ACCESS_FS_READ_FILE, "in", LANDLOCK_ACCESS_FS_READ_FILE);
		close(CHECK_OK(open("in/f", O_RDONLY)));
		sandbox(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE, "in/sub",
			LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE);
		close(CHECK_OK(open("in/sub/f", O_RDWR)));
		CHECK_ERR(EACCES, open("in/f", O_RDONLY));  /* the second layer denies */
		CHECK_ERR(EACCES, open("out/f", O_RDONLY)); /* both deny */
		/* A third layer handling nothing of this leaves it alone. */
		sandbox(LANDLOCK_ACCESS_FS_EXECUTE, NULL, 0);
		close(CHECK_OK(open("in/sub/f", O_RDWR)));
		_exit(0);
	}
	expect_exit(pid, 0, "the sandboxed child");
}

/* fork shares the domain, execve keeps it and no_new_privs (the helper checks both). */
TEST(landlock_kept_across_fork_and_exec)
{
	need_landlock();
	make_tree();
	pid_t pid = xfork();
	if (pid == 0) {
		sandbox(LANDLOCK_ACCESS_FS_WRITE_FILE, "in", LANDLOCK_ACCESS_FS_WRITE_FILE);
		pid_t grandchild = xfork();
		if (grandchild == 0) {
			CHECK_ERR(EACCES, open("out/f", O_WRONLY));
			close(CHECK_OK(open("in/f", O_WRONLY)));
			_exit(0);
		}
		expect_exit(grandchild, 0, "the forked child");
		char *argv[] = { "usertests", "--helper", "landlocked", "out/f", NULL };
		exec_helper(argv);
	}
	expect_exit(pid, 0, "the program run after landlock_restrict_self");
}

int
helper_landlocked(const char *denied)
{
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		fail("landlocked: no_new_privs is gone after execve");
	if (open(denied, O_WRONLY) >= 0 || errno != EACCES)
		fail("landlocked: writing %s is not EACCES after execve", denied);
	return 0;
}

/* The reparenting tests' directories "a" and "b", with the files "a/f" and second. */
static void
make_a_b(const char *second)
{
	CHECK_OK(mkdir("a", 0755));
	CHECK_OK(mkdir("b", 0755));
	make_file("a/f", "data", 4);
	make_file(second, "data", 4);
}

/*
 * Reparenting (link, rename into another directory) needs REFER at both
 * ends, else EXDEV even where every other right is allowed; within one
 * directory it does not. A missing MAKE or REMOVE right is EACCES first.
 */
TEST(landlock_refer)
{
	need_landlock();
	make_a_b("a/g");
	pid_t pid = xfork();
	if (pid == 0) {
		uint64_t moves = LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REMOVE_FILE;
		uint64_t refer = LANDLOCK_ACCESS_FS_REFER;
		sandbox_a_b(moves | refer, moves, moves | refer);
		CHECK_OK(rename("a/f", "a/f2"));	 /* one directory: no REFER asked */
		CHECK_ERR(EXDEV, rename("a/f2", "b/f")); /* "a" lacks REFER */
		CHECK_ERR(EXDEV, link("a/g", "b/g"));
		CHECK_ERR(EACCES, rename("a/g", "g")); /* no MAKE_REG in the test dir */
		make_file("b/h", "data", 4); /* b allows making it, and "h" can go nowhere but b */
		CHECK_OK(rename("b/h", "b/h2"));
		_exit(0);
	}
	expect_exit(pid, 0, "the sandboxed child");
	/* With REFER at both ends and the same rights, the move is allowed. */
	pid = xfork();
	if (pid == 0) {
		uint64_t moves = LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REMOVE_FILE |
				 LANDLOCK_ACCESS_FS_REFER;
		sandbox_a_b(moves, moves, moves);
		CHECK_OK(rename("a/f2", "b/f"));
		CHECK_OK(link("a/g", "b/g"));
		/* A layer that does not handle REFER forbids reparenting altogether. */
		sandbox(LANDLOCK_ACCESS_FS_EXECUTE, NULL, 0);
		CHECK_ERR(EXDEV, rename("b/f", "a/f"));
		CHECK_OK(rename("b/f", "b/f3"));
		_exit(0);
	}
	expect_exit(pid, 0, "the child with REFER");
}

/* A file may not move to where it would gain a right its old place denied: EXDEV. */
TEST(landlock_refer_gains_nothing)
{
	need_landlock();
	make_a_b("b/f");
	pid_t pid = xfork();
	if (pid == 0) {
		uint64_t moves = LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REMOVE_FILE |
				 LANDLOCK_ACCESS_FS_REFER;
		uint64_t read = LANDLOCK_ACCESS_FS_READ_FILE;
		sandbox_a_b(moves | read, moves, moves | read);
		CHECK_ERR(EXDEV, rename("a/f", "b/g")); /* would become readable */
		CHECK_OK(rename("b/f", "a/g"));		/* loses READ_FILE: fine */
		CHECK_ERR(EACCES, open("a/g", O_RDONLY));
		_exit(0);
	}
	expect_exit(pid, 0, "the sandboxed child");
}

/*
 * A directory's own rules move with it, so it may go where its parent
 * would grant what its rule already grants; an exchange checks both
 * files, each against where it lands.
 */
TEST(landlock_refer_own_rules_and_exchange)
{
	need_landlock();
	make_a_b("b/g");
	CHECK_OK(mkdir("a/d", 0755));
	pid_t pid = xfork();
	if (pid == 0) {
		uint64_t moves = LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REMOVE_FILE |
				 LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR |
				 LANDLOCK_ACCESS_FS_REFER;
		uint64_t read = LANDLOCK_ACCESS_FS_READ_FILE;
		int fd = ruleset_with(moves | read, "a", moves);
		allow_beneath(fd, "b", moves | read);
		allow_beneath(fd, "a/d", read);
		restrict_to(fd);
		CHECK_OK(rename("a/d", "b/d")); /* gains nothing its own rule lacks */
		CHECK_ERR(EXDEV, syscall(SYS_renameat2, AT_FDCWD, "a/f", AT_FDCWD, "b/g",
					 RENAME_EXCHANGE)); /* a/f would become readable */
		CHECK_OK(rename("b/d", "a/d"));
		_exit(0);
	}
	expect_exit(pid, 0, "the sandboxed child");
}
