/*
 * core_dump.c - usertests: the core file a process killed by a core signal
 * leaves (core(5)): named by /proc/sys/kernel/core_pattern, written only
 * under a nonzero RLIMIT_CORE by a dumpable process, an ELF ET_CORE with
 * the dying thread's registers and signal in its notes and the memory in
 * its PT_LOADs (not MADV_DONTDUMP's), and WCOREDUMP / CLD_DUMPED in the
 * parent's wait only when a core was written. Each test sets the pattern
 * itself and puts the old one back: a Linux host may pipe cores to
 * systemd-coredump; without the right to set it (not root) they skip.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CORE_PATTERN "/proc/sys/kernel/core_pattern"

static char saved_pattern[256];

/* Sets the core pattern, keeping the old one for pattern_restore; skips when it may not. */
static void
pattern_set(const char *pattern)
{
	int fd = open(CORE_PATTERN, O_RDONLY);
	if (fd < 0)
		skip("no %s (%s)", CORE_PATTERN, errname(errno));
	ssize_t n = read(fd, saved_pattern, sizeof(saved_pattern) - 1);
	saved_pattern[n > 0 ? n : 0] = '\0';
	close(fd);
	if ((fd = open(CORE_PATTERN, O_WRONLY)) < 0)
		skip("cannot set %s (%s)", CORE_PATTERN, errname(errno));
	if (write(fd, pattern, strlen(pattern)) != (ssize_t)strlen(pattern)) {
		close(fd);
		skip("cannot set %s (%s)", CORE_PATTERN, errname(errno));
	}
	close(fd);
}

static void
pattern_restore(void)
{
	int fd = open(CORE_PATTERN, O_WRONLY);
	if (fd >= 0) {
		CHECK(write(fd, saved_pattern, strlen(saved_pattern)) > 0);
		close(fd);
	}
}

/* A fresh directory for the cores of one test. */
static void
core_dir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/core_dump.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
}

static void
set_core_limit(rlim_t n)
{
	struct rlimit r = { n, n };
	if (setrlimit(RLIMIT_CORE, &r) < 0)
		_exit(100);
}

/* What a dying child leaves for the checks: a marked page, and one marked but not to be dumped. */
struct victim {
	unsigned char *kept, *dropped;
};

/* The child: in dir, with the core limit and filter (NULL: as it is), marks two pages, dies of sig. */
static pid_t
victim_start_filtered(const char *dir, rlim_t limit, bool dumpable, int sig, struct victim *v,
		      const char *filter)
{
	v->kept = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(v->kept != MAP_FAILED);
	v->dropped = v->kept + PAGE;
	pid_t pid = xfork();
	if (pid == 0) {
		fill_pattern(v->kept, 2 * PAGE, 26);
		if (madvise(v->dropped, PAGE, MADV_DONTDUMP) < 0 || chdir(dir) < 0 ||
		    prctl(PR_SET_DUMPABLE, dumpable) < 0)
			_exit(101);
		int fd = filter ? open("/proc/self/coredump_filter", O_WRONLY) : -1;
		if (filter && (fd < 0 || write(fd, filter, strlen(filter)) < 0))
			_exit(103);
		set_core_limit(limit);
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(102);
	}
	return pid;
}

static pid_t
victim_start(const char *dir, rlim_t limit, bool dumpable, int sig, struct victim *v)
{
	return victim_start_filtered(dir, limit, dumpable, sig, v, NULL);
}

static void
remove_dir(const char *dir, const char *core)
{
	if (core)
		unlink(path_under(dir, core));
	CHECK_OK(rmdir(dir));
}

/* The core file of name in dir, read whole; its size in *len. */
static unsigned char *
read_core(const char *dir, const char *name, size_t *len)
{
	struct stat st;
	const char *path = path_under(dir, name);
	int fd = CHECK_OK(open(path, O_RDONLY));
	CHECK_OK(fstat(fd, &st));
	CHECK_EQ(st.st_mode & 0177, 0u); /* 0600 less the umask: nobody else reads it */
	CHECK_EQ(st.st_uid, geteuid());
	unsigned char *buf = malloc(st.st_size);
	CHECK(buf != NULL);
	CHECK_EQ(read(fd, buf, st.st_size), (ssize_t)st.st_size);
	close(fd);
	*len = st.st_size;
	return buf;
}

/* The note of type in the core's PT_NOTE, or NULL. */
static const void *
find_note(const unsigned char *core, const Elf64_Phdr *note, unsigned type, size_t *size)
{
	for (size_t off = note->p_offset; off < note->p_offset + note->p_filesz;) {
		const Elf64_Nhdr *n = (const void *)(core + off);
		size_t name = (n->n_namesz + 3) & ~3ul, desc = (n->n_descsz + 3) & ~3ul;
		if (n->n_type == type && !strcmp((const char *)(n + 1), "CORE")) {
			*size = n->n_descsz;
			return core + off + sizeof(*n) + name;
		}
		off += sizeof(*n) + name + desc;
	}
	return NULL;
}

/* The PT_LOAD holding addr, or NULL. */
static const Elf64_Phdr *
find_load(const Elf64_Ehdr *eh, const unsigned char *core, const void *addr)
{
	const Elf64_Phdr *ph = (const void *)(core + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr <= (unsigned long)addr &&
		    (unsigned long)addr < ph[i].p_vaddr + ph[i].p_memsz)
			return &ph[i];
	return NULL;
}

/* The core of a child killed by sig: the header, its notes, the kept page and not the dropped. */
static void
check_core(const unsigned char *core, size_t len, pid_t pid, int sig, const struct victim *v)
{
	const Elf64_Ehdr *eh = (const void *)core;
	CHECK(len > sizeof(*eh) && !memcmp(eh->e_ident, ELFMAG, SELFMAG));
	CHECK_EQ(eh->e_type, ET_CORE);
	CHECK_EQ(eh->e_machine, EM_X86_64);
	const Elf64_Phdr *ph = (const void *)(core + eh->e_phoff);
	CHECK_EQ(ph[0].p_type, PT_NOTE);
	size_t size;
	const struct {
		int si_signo, si_code, si_errno;
		short cursig;
		short pad;
		unsigned long sigpend, sighold;
		int pid;
	} *status = find_note(core, &ph[0], NT_PRSTATUS, &size);
	CHECK(status != NULL);
	CHECK_EQ(size, 336ul); /* struct elf_prstatus of x86-64 */
	CHECK_EQ(status->cursig, sig);
	CHECK_EQ(status->pid, pid);
	const siginfo_t *info = find_note(core, &ph[0], NT_SIGINFO, &size);
	CHECK(info != NULL);
	CHECK_EQ(info->si_signo, sig);
	CHECK(find_note(core, &ph[0], NT_PRPSINFO, &size) != NULL);
	CHECK(find_note(core, &ph[0], NT_AUXV, &size) != NULL);
	const Elf64_Phdr *kept = find_load(eh, core, v->kept);
	CHECK(kept != NULL);
	unsigned long at = kept->p_offset + ((unsigned long)v->kept - kept->p_vaddr);
	CHECK(kept->p_filesz > 0 && at + PAGE <= len);
	CHECK(has_pattern(core + at, PAGE, 26)); /* fill_pattern's first page, from the child */
	const Elf64_Phdr *dropped = find_load(eh, core, v->dropped);
	CHECK(dropped != NULL && dropped != kept); /* MADV_DONTDUMP split the area */
	CHECK_EQ(dropped->p_filesz, 0ul);
}

TEST(core_dump_file)
{
	char dir[64], name[32];
	struct victim v;
	size_t len;

	core_dir(dir, sizeof(dir));
	pattern_set("core.%p.%s");
	pid_t pid = victim_start(dir, RLIM_INFINITY, true, SIGABRT, &v);
	int status = wait_status(pid);
	pattern_restore();
	expect_signaled(status, SIGABRT, "the dumping child");
	CHECK(WCOREDUMP(status));
	snprintf(name, sizeof(name), "core.%d.%d", pid, SIGABRT);
	unsigned char *core = read_core(dir, name, &len);
	check_core(core, len, pid, SIGABRT, &v);
	free(core);
	remove_dir(dir, name);
}

/* No core without room for it or when not dumpable: no file, no WCOREDUMP. */
static void
expect_no_core(rlim_t limit, bool dumpable)
{
	char dir[64], name[32];
	struct victim v;

	core_dir(dir, sizeof(dir));
	pattern_set("core.%p");
	pid_t pid = victim_start(dir, limit, dumpable, SIGSEGV, &v);
	int status = wait_status(pid);
	pattern_restore();
	expect_signaled(status, SIGSEGV, "the child");
	CHECK(!WCOREDUMP(status));
	snprintf(name, sizeof(name), "core.%d", pid);
	CHECK_ERR(ENOENT, access(path_under(dir, name), F_OK));
	remove_dir(dir, NULL);
}

TEST(core_dump_limits)
{
	expect_no_core(0, true);
	expect_no_core(RLIM_INFINITY, false);
}

/* A core longer than RLIMIT_CORE is cut there, and counts as dumped, as Linux's. */
TEST(core_dump_cut)
{
	char dir[64], name[32];
	struct victim v;
	struct stat st;

	core_dir(dir, sizeof(dir));
	pattern_set("core.%p");
	pid_t pid = victim_start(dir, 2 * PAGE, true, SIGBUS, &v);
	int status = wait_status(pid);
	pattern_restore();
	expect_signaled(status, SIGBUS, "the dumping child");
	CHECK(WCOREDUMP(status));
	snprintf(name, sizeof(name), "core.%d", pid);
	CHECK_OK(stat(path_under(dir, name), &st));
	CHECK(st.st_size > 0 && st.st_size <= 2 * PAGE);
	remove_dir(dir, name);
}

/* A core signal sent by another process to one asleep in pause() dumps core when it wakes. */
TEST(core_dump_sent_signal)
{
	char dir[64], name[32];

	core_dir(dir, sizeof(dir));
	pattern_set("core.%p");
	pid_t pid = xfork();
	if (pid == 0) {
		if (chdir(dir) < 0)
			_exit(101);
		set_core_limit(512 * 1024);
		pause();
		_exit(102);
	}
	wait_until_asleep(pid);
	CHECK_OK(kill(pid, SIGQUIT));
	int status = wait_status(pid);
	pattern_restore();
	expect_signaled(status, SIGQUIT, "the dumping child");
	CHECK(WCOREDUMP(status));
	snprintf(name, sizeof(name), "core.%d", pid);
	remove_dir(dir, name);
}

/* waitid says CLD_DUMPED for a child that left a core, the signal in si_status. */
TEST(core_dump_waitid)
{
	char dir[64], name[32];
	struct victim v;
	siginfo_t info;

	core_dir(dir, sizeof(dir));
	pattern_set("core.%p");
	pid_t pid = victim_start(dir, RLIM_INFINITY, true, SIGQUIT, &v);
	int err = waitid(P_PID, pid, &info, WEXITED);
	pattern_restore();
	CHECK_OK(err);
	CHECK_EQ(info.si_code, CLD_DUMPED);
	CHECK_EQ(info.si_status, SIGQUIT);
	snprintf(name, sizeof(name), "core.%d", pid);
	remove_dir(dir, name);
}

/*
 * /proc/self/coredump_filter: 0x33 at first (anonymous memory and ELF
 * headers), read as eight hex digits; with its anonymous-private bit
 * cleared, the child's marked page is in the core without contents.
 */
TEST(core_dump_filter)
{
	char dir[64], name[32], buf[16] = "";
	struct victim v;
	size_t len;

	int fd = CHECK_OK(open("/proc/self/coredump_filter", O_RDONLY));
	CHECK_EQ(read(fd, buf, sizeof(buf) - 1), 9l);
	close(fd);
	CHECK_EQ(strtoul(buf, NULL, 16) & 0x33, 0x33ul);
	core_dir(dir, sizeof(dir));
	pattern_set("core.%p");
	pid_t pid = victim_start_filtered(dir, RLIM_INFINITY, true, SIGSEGV, &v, "0x32");
	int status = wait_status(pid);
	pattern_restore();
	expect_signaled(status, SIGSEGV, "the dumping child");
	CHECK(WCOREDUMP(status));
	snprintf(name, sizeof(name), "core.%d", pid);
	unsigned char *core = read_core(dir, name, &len);
	const Elf64_Ehdr *eh = (const void *)core;
	const Elf64_Phdr *kept = find_load(eh, core, v.kept);
	CHECK(kept != NULL);
	CHECK_EQ(kept->p_filesz, 0ul);
	free(core);
	remove_dir(dir, name);
}
