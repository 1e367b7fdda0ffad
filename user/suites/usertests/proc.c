/*
 * proc.c - usertests: /proc (meminfo, status, maps, uptime, cpuinfo, mounts, the
 * links self, thread-self, exe, cwd, root and fd/N) and rewind's knobs in
 * /proc/sys/rewind.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lib/procfile.h"

TEST(proc_meminfo)
{
	char text[8192];
	unsigned long long total, mfree;

	CHECK_OK(read_text_file("/proc/meminfo", text, sizeof(text)));
	CHECK(field_ull(text, "MemTotal", &total) == 0 && total > 0);
	CHECK(field_ull(text, "MemFree", &mfree) == 0 && mfree <= total);
	CHECK(strstr(text, " kB\n") != NULL);
}

TEST(proc_self_status)
{
	char text[4096], name[64], state[32];
	unsigned long long pid, ppid;

	const char *base = strrchr(self_path, '/') ? strrchr(self_path, '/') + 1 : self_path;

	CHECK_OK(read_text_file("/proc/self/status", text, sizeof(text)));
	/* The name is the executable's file name, cut to 15 characters as Linux does. */
	CHECK(field_str(text, "Name", name, sizeof(name)) == 0 && strncmp(name, base, 15) == 0);
	CHECK(field_str(text, "State", state, sizeof(state)) == 0 && state[0] == 'R');
	CHECK(field_ull(text, "Pid", &pid) == 0 && pid == (unsigned long long)getpid());
	CHECK(field_ull(text, "PPid", &ppid) == 0 && ppid == (unsigned long long)getppid());
}

/* ps reads other processes' status files. */
TEST(proc_pid_status)
{
	char path[64], text[4096];
	unsigned long long ppid;
	int p[2];
	char c;
	pid_t pid;

	CHECK_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		close(p[1]);
		read(p[0], &c, 1);
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	CHECK(field_ull(text, "PPid", &ppid) == 0 && ppid == (unsigned long long)getpid());
	CHECK(find_field(text, "Name") && find_field(text, "State"));
	close(p[1]);
	expect_exit(pid, 0, "child");
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool seen_self = false;
	char me[16];

	CHECK(d != NULL);
	snprintf(me, sizeof(me), "%d", getpid());
	while ((e = readdir(d)))
		seen_self |= !strcmp(e->d_name, me);
	closedir(d);
	CHECK(seen_self);
}

/* Finds the /proc/self/maps line whose range holds addr; returns its permissions. */
static bool
maps_perms(const char *text, unsigned long addr, char perms[5])
{
	for (const char *line = text; line && *line;
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && addr >= lo && addr < hi)
			return true;
	}
	return false;
}

TEST(proc_self_maps)
{
	static char text[65536];
	char perms[5];
	int local = 0;
	static const int constant = 1;
	unsigned char *ro = map_anon(PAGE, PROT_READ);

	CHECK_OK(read_text_file("/proc/self/maps", text, sizeof(text)));
	CHECK(maps_perms(text, (unsigned long)&local, perms) && !strcmp(perms, "rw-p"));
	CHECK(maps_perms(text, (unsigned long)test_proc_self_maps, perms) &&
	      !strcmp(perms, "r-xp"));
	CHECK(maps_perms(text, (unsigned long)&constant, perms) && perms[0] == 'r' &&
	      perms[1] == '-');
	CHECK(maps_perms(text, (unsigned long)ro, perms) && !strcmp(perms, "r--p"));
	CHECK(!maps_perms(text, 0, perms));
}

TEST(proc_misc)
{
	char text[65536];
	double up, idle;

	CHECK_OK(read_text_file("/proc/uptime", text, sizeof(text)));
	CHECK(sscanf(text, "%lf %lf", &up, &idle) == 2 && up > 0);
	CHECK_OK(read_text_file("/proc/cpuinfo", text, sizeof(text)));
	CHECK(strstr(text, "processor") != NULL);
	CHECK_ERR(ENOENT, open("/proc/no-such-file", O_RDONLY));
}

/* /proc/version: Linux's line, "<sysname> version <release> ...", as uname(2) says. */
TEST(proc_version)
{
	char text[512], want[300];
	struct utsname u;

	CHECK_OK(uname(&u));
	snprintf(want, sizeof(want), "%s version %s ", u.sysname, u.release);
	CHECK(read_text_file("/proc/version", text, sizeof(text)) > 0);
	CHECK(strncmp(text, want, strlen(want)) == 0);
	CHECK(strchr(text, '\n') != NULL);
}

/* Every knob reads; nonsense written to one is refused and changes nothing. */
static void
check_knob(const char *name)
{
	char path[300], before[256], after[256];
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/rewind/%s", name);
	if (read_text_file(path, before, sizeof(before)) <= 0)
		fail("%s: empty or unreadable (%s)", path, errname(errno));
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		ssize_t n = write(fd, "no-such-value!\n", 15);

		if (n >= 0 || (errno != EINVAL && errno != EPERM && errno != EACCES))
			fail("%s: writing nonsense gave %zd (%s), want EINVAL", path, n,
			     errname(errno));
		close(fd);
	} else if (errno != EACCES && errno != EPERM) {
		fail("%s: open for writing failed with %s", path, errname(errno));
	}
	CHECK(read_text_file(path, after, sizeof(after)) > 0);
	if (strcmp(before, after))
		fail("%s changed from '%s' to '%s' after a refused write", path, before, after);
}

/*
 * /proc/mounts in Linux's format: six fields a line, ending "0 0"; the
 * root and /proc are there. When the root is an initramfs (rewind, and
 * Linux's guest) it is "rootfs / rootfs rw,size=Nk,...", N its statfs size.
 */
TEST(proc_mounts)
{
	static char text[16384], self[16384];
	char dev[256], dir[256], type[64], opts[1024];
	int a, b, n;
	bool root = false, proc = false;

	CHECK_OK(read_text_file("/proc/mounts", text, sizeof(text)));
	CHECK_OK(read_text_file("/proc/self/mounts", self, sizeof(self)));
	CHECK_EQ(strcmp(text, self), 0);
	for (char *line = text; *line; line = strchr(line, '\n') + 1) {
		CHECK(strchr(line, '\n') != NULL);
		CHECK(sscanf(line, "%255s %255s %63s %1023s %d %d%n", dev, dir, type, opts, &a, &b,
			     &n) == 6 &&
		      a == 0 && b == 0 && line[n] == '\n');
		CHECK(strncmp(opts, "rw", 2) == 0 || strncmp(opts, "ro", 2) == 0);
		if (strcmp(dir, "/proc") == 0 && strcmp(type, "proc") == 0)
			proc = true;
		if (strcmp(dir, "/") != 0)
			continue;
		root = true;
		if (strcmp(type, "rootfs") == 0) {
			struct statfs st;
			unsigned long long kb;
			CHECK_OK(statfs("/", &st));
			CHECK_EQ(strcmp(dev, "rootfs"), 0);
			CHECK(sscanf(opts, "rw,size=%lluk", &kb) == 1 &&
			      kb == st.f_blocks * (st.f_bsize / 1024));
			CHECK(strstr(opts, ",nr_inodes=") != NULL);
		} else {
			CHECK(!on_rewind());
		}
	}
	CHECK(root && proc);
}

TEST(knobs)
{
	DIR *d = opendir("/proc/sys/rewind");
	struct dirent *e;
	int n = 0;

	if (!d)
		skip("no /proc/sys/rewind (not running on rewind)");
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		check_knob(e->d_name);
		n++;
	}
	closedir(d);
	CHECK(n > 0);
	CHECK_ERR(ENOENT, open("/proc/sys/rewind/no-such-knob", O_RDONLY));
}

/* rewind's /proc/syscalls: each implemented call with its arguments' types and names. */
TEST(proc_syscalls)
{
	static char text[32768];

	if (!on_rewind())
		skip("/proc/syscalls is rewind's own");
	CHECK(read_text_file("/proc/syscalls", text, sizeof(text)) > 0);
	CHECK(strstr(text, "\n0\tread\tint fd\tchar * buf\tsize_t n\n") ||
	      strncmp(text, "0\tread\tint fd\tchar * buf\tsize_t n\n", 31) == 0);
	CHECK(strstr(text, "\n39\tgetpid\n") != NULL);
	CHECK(strstr(text, "\topenat\tint dirfd\tconst char * path\tint flags\tu32 mode\n") !=
	      NULL);
	CHECK_EQ(strstr(text, "\ttuxcall"), NULL); /* only what rewind implements */
}

/*
 * A program writing nonsense to a knob over and over gets EINVAL every
 * time and the knob keeps its value; the kernel's warning about it is
 * rate-limited (printk_ratelimited: the arithmetic is host-tested in
 * tests/unit/test_ratelimit.c), so the flood costs the console nothing.
 */
TEST(knob_invalid_write_flood)
{
	static const char *const writes[][2] = { { "vsyscall", "no-such-mode\n" },
						 { "cputime", "7\n" } };

	if (!on_rewind())
		skip("no /proc/sys/rewind (not running on rewind)");
	for (unsigned k = 0; k < 2; k++) {
		char path[64], before[256], after[256];
		int fd;

		snprintf(path, sizeof(path), "/proc/sys/rewind/%s", writes[k][0]);
		CHECK(read_text_file(path, before, sizeof(before)) > 0);
		fd = CHECK_OK(open(path, O_WRONLY));
		for (int i = 0; i < 2000; i++)
			CHECK_ERR(EINVAL, write(fd, writes[k][1], strlen(writes[k][1])));
		close(fd);
		CHECK(read_text_file(path, after, sizeof(after)) > 0);
		CHECK_EQ(strcmp(before, after), 0);
	}
}

/* readlink into a NUL-terminated string: its length, or -1. */
static long
read_link(const char *path, char *buf, size_t size)
{
	long n = readlink(path, buf, size - 1);

	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* /proc/self and /proc/thread-self are links to the caller's own directories. */
TEST(proc_self_link)
{
	char buf[64], want[64];
	struct stat st;

	snprintf(want, sizeof(want), "%d", getpid());
	CHECK(read_link("/proc/self", buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0);
	CHECK_OK(lstat("/proc/self", &st));
	CHECK(S_ISLNK(st.st_mode));
	CHECK_OK(stat("/proc/self", &st));
	CHECK(S_ISDIR(st.st_mode));
	snprintf(want, sizeof(want), "%d/task/%d", getpid(), (int)syscall(SYS_gettid));
	CHECK(read_link("/proc/thread-self", buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0);
	CHECK_OK(stat("/proc/thread-self/status", &st));
	snprintf(want, sizeof(want), "/proc/%d/task/%d/status", getpid(), (int)syscall(SYS_gettid));
	CHECK_OK(stat(want, &st));
	/* A child sees itself. */
	pid_t pid = fork();
	if (pid == 0) {
		snprintf(want, sizeof(want), "%d", getpid());
		_exit(read_link("/proc/self", buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0 ? 0
											      : 1);
	}
	int status;
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* /proc/self/exe names this program, and opening it opens it. */
TEST(proc_exe)
{
	char path[PATH_MAX];
	struct stat self, st;

	CHECK_OK(stat(self_path, &self));
	CHECK(read_link("/proc/self/exe", path, sizeof(path)) > 0 && path[0] == '/');
	CHECK_OK(stat(path, &st));
	CHECK(st.st_ino == self.st_ino && st.st_dev == self.st_dev);
	CHECK_OK(lstat("/proc/self/exe", &st));
	CHECK(S_ISLNK(st.st_mode));
	int fd = CHECK_OK(open("/proc/self/exe", O_RDONLY));
	CHECK_OK(fstat(fd, &st));
	CHECK_EQ(st.st_ino, self.st_ino);
	char magic[4];
	CHECK(read(fd, magic, 4) == 4 && memcmp(magic, "\177ELF", 4) == 0);
	close(fd);
}

/* cwd and root are links too; a path through cwd walks on from the directory. */
TEST(proc_cwd_root)
{
	char cwd[PATH_MAX], buf[PATH_MAX];
	struct stat st;

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK(read_link("/proc/self/cwd", buf, sizeof(buf)) > 0 && strcmp(buf, cwd) == 0);
	CHECK(read_link("/proc/self/root", buf, sizeof(buf)) > 0 && strcmp(buf, "/") == 0);
	make_file("here", "h", 1);
	CHECK_OK(stat("/proc/self/cwd/here", &st));
	CHECK_EQ(st.st_size, 1);
	CHECK_OK(mkdir("sub", 0755));
	CHECK_OK(chdir("sub"));
	CHECK(read_link("/proc/self/cwd", buf, sizeof(buf)) > 0 && strstr(buf, "/sub") != NULL);
	CHECK_OK(chdir(".."));
}

/* /proc/self/fd: a link per open fd; paths for files, "pipe:[ino]" for pipes. */
TEST(proc_fd_links)
{
	char cwd[PATH_MAX], want[PATH_MAX + 16], path[64], buf[PATH_MAX];
	struct stat st, lst;
	int p[2];

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	int fd = create_file("f", "abc", 3, 0644);
	snprintf(want, sizeof(want), "%s/f", cwd);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	CHECK(read_link(path, buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0);
	CHECK_OK(lstat(path, &lst));
	CHECK(S_ISLNK(lst.st_mode));
	/* Opening the link opens the file anew, with an offset of its own. */
	int again = CHECK_OK(open(path, O_RDONLY));
	CHECK_OK(fstat(again, &st));
	CHECK_OK(fstat(fd, &lst));
	CHECK_EQ(st.st_ino, lst.st_ino);
	CHECK(read(again, buf, 8) == 3 && lseek(fd, 0, SEEK_CUR) == 3);
	close(again);
	CHECK_OK(pipe(p));
	CHECK_OK(fstat(p[0], &st));
	snprintf(want, sizeof(want), "pipe:[%lu]", (unsigned long)st.st_ino);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[1]);
	CHECK(read_link(path, buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0);
	/* The directory lists the open fds. */
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *e;
	int seen = 0;
	CHECK(dir != NULL);
	while ((e = readdir(dir)) != NULL) {
		if (atoi(e->d_name) == fd || atoi(e->d_name) == p[0])
			seen += e->d_type == DT_LNK;
	}
	closedir(dir);
	CHECK_EQ(seen, 2);
	close(p[0]);
	close(p[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[1]);
	CHECK_ERR(ENOENT, readlink(path, buf, sizeof(buf)));
	close(fd);
}

/* Another process's links: its cwd and exe. */
TEST(proc_pid_links)
{
	char path[64], buf[PATH_MAX], want[PATH_MAX];
	int ready[2], go[2];

	CHECK_OK(mkdir("child", 0755));
	CHECK_OK(pipe(ready));
	CHECK_OK(pipe(go));
	pid_t pid = fork();
	if (pid == 0) {
		char c = 0;
		close(go[1]);
		if (chdir("child") != 0)
			_exit(1);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	char c;
	CHECK_EQ(read(ready[0], &c, 1), 1);
	CHECK(getcwd(want, sizeof(want) - 8) != NULL);
	strcat(want, "/child");
	snprintf(path, sizeof(path), "/proc/%d/cwd", pid);
	long n = read_link(path, buf, sizeof(buf));
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	char exe[PATH_MAX];
	long m = read_link(path, exe, sizeof(exe));
	close(go[1]);
	int status;
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(n > 0 && strcmp(buf, want) == 0);
	CHECK(m > 0 && read_link("/proc/self/exe", buf, sizeof(buf)) == m && strcmp(buf, exe) == 0);
}

/* /proc/sys/kernel shows the uname fields, the same as uname(2) returns. */
TEST(proc_sys_kernel_uname)
{
	static const struct {
		const char *file;
		size_t offset;
	} fields[] = {
		{ "/proc/sys/kernel/ostype", offsetof(struct utsname, sysname) },
		{ "/proc/sys/kernel/osrelease", offsetof(struct utsname, release) },
		{ "/proc/sys/kernel/version", offsetof(struct utsname, version) },
		{ "/proc/sys/kernel/hostname", offsetof(struct utsname, nodename) },
	};
	struct utsname u;
	char text[256];

	CHECK_OK(uname(&u));
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		CHECK(read_text_file(fields[i].file, text, sizeof(text)) > 0);
		text[strcspn(text, "\n")] = '\0';
		if (strcmp(text, (const char *)&u + fields[i].offset) != 0)
			fail("%s says '%s', uname '%s'", fields[i].file, text,
			     (const char *)&u + fields[i].offset);
	}
}

/* pid_max: where pids wrap, above any pid in use; tainted: a number (0 on rewind). */
TEST(proc_sys_kernel_pid_max_tainted)
{
	char text[32];
	long pid_max, tainted;

	CHECK(read_text_file("/proc/sys/kernel/pid_max", text, sizeof(text)) > 0);
	CHECK(sscanf(text, "%ld", &pid_max) == 1 && pid_max > getpid() && pid_max <= 4194304);
	CHECK(read_text_file("/proc/sys/kernel/tainted", text, sizeof(text)) > 0);
	CHECK(sscanf(text, "%ld", &tainted) == 1 && tainted >= 0);
	if (on_rewind())
		CHECK_EQ(tainted, 0);
}

/* Writes text to the sysctl at path: what write(2) answered, or -1 (errno) if it did not open. */
static long
write_sysctl(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return -1;
	long n = write(fd, text, strlen(text));
	int saved = errno;
	close(fd);
	errno = saved;
	return n;
}

/*
 * pid_max is root's to set within [301, 4194304]; a fork past it wraps to
 * the low pids. The wrap is tried on rewind alone: the host's pids are
 * everyone's, and there only the value it had is written back.
 */
TEST(proc_sys_kernel_pid_max_is_roots_to_set)
{
	const char *path = "/proc/sys/kernel/pid_max";
	char old[32];

	if (geteuid() != 0)
		skip("needs root");
	CHECK(read_text_file(path, old, sizeof(old)) > 0);
	CHECK_ERR(EINVAL, write_sysctl(path, "300"));
	CHECK_ERR(EINVAL, write_sysctl(path, "4194305"));
	CHECK_EQ(write_sysctl(path, old), (long)strlen(old));
	if (!on_rewind())
		return;
	/* A fresh boot's pids are below pid_max's lowest: the child's must be above it. */
	CHECK(write_sysctl("/proc/sys/kernel/ns_last_pid", "1000") > 0);
	pid_t last = xfork();
	if (last == 0)
		_exit(0);
	expect_exit(last, 0, "a child that took the last pid");
	char limit[32];
	snprintf(limit, sizeof(limit), "%d\n", last + 1);
	CHECK_EQ(write_sysctl(path, limit), (long)strlen(limit));
	pid_t wrapped = xfork();
	if (wrapped == 0)
		_exit(0);
	CHECK_EQ(write_sysctl(path, old), (long)strlen(old));
	expect_exit(wrapped, 0, "a child past pid_max");
	CHECK(wrapped < last);
}

/*
 * Kernel controls are root's: a process that gave up root may not open a
 * sysctl (or one of rewind's knobs, lockstat, profile) for writing - a
 * fuzzer running as nobody once switched knobs. It still reads them.
 */
TEST(proc_controls_are_roots_to_write)
{
	static const char *const controls[] = { "/proc/sys/kernel/hostname",
						"/proc/sys/rewind/vsyscall", "/proc/lockstat",
						"/proc/profile" };
	char text[256];

	if (geteuid() != 0)
		skip("needs root");
	CHECK_OK(setuid(65534));
	for (unsigned i = 0; i < sizeof(controls) / sizeof(controls[0]); i++) {
		if (!on_rewind() && i > 0)
			break; /* rewind's own controls */
		CHECK_ERR(EACCES, open(controls[i], O_WRONLY));
		CHECK_ERR(EACCES, open(controls[i], O_RDWR));
		CHECK(read_text_file(controls[i], text, sizeof(text)) >= 0);
	}
	/* Its own comm is root's too while the change of ids leaves it undumpable (permissions.c). */
	CHECK_ERR(EACCES, open("/proc/self/comm", O_WRONLY));
}

/*
 * The kernel's allocation sites name kernel addresses: rewind's
 * /proc/kmemdebug_sites and /proc/page_sites are root's alone (0400), as
 * Linux's /proc/slabinfo.
 */
TEST(kernel_allocation_listing_is_roots_to_read)
{
	const char *paths[] = { "/proc/kmemdebug_sites", "/proc/page_sites" };
	const char *linux_path[] = { "/proc/slabinfo" };
	const char **p = on_rewind() ? paths : linux_path;
	size_t n = on_rewind() ? 2 : 1;
	char text[64];

	if (geteuid() != 0)
		skip("needs root");
	if (access(p[0], F_OK) != 0)
		skip("no %s here", p[0]);
	for (size_t i = 0; i < n; i++)
		CHECK(read_text_file(p[i], text, sizeof(text)) >= 0);
	CHECK_OK(setuid(65534));
	for (size_t i = 0; i < n; i++)
		CHECK_ERR(EACCES, open(p[i], O_RDONLY));
}

/* The site of after_text that grew most since before_text, and by how much. */
static unsigned long
site_grown_most(const char *before_text, const char *after_text, char *site, size_t size)
{
	char name[128];
	unsigned long count, most = 0;
	int used;

	for (const char *p = after_text; sscanf(p, "%127s %lu\n%n", name, &count, &used) == 2;
	     p += used) {
		unsigned long before = site_count(before_text, name);
		if (count > before && count - before > most) {
			most = count - before;
			snprintf(site, size, "%s", name);
		}
	}
	return most;
}

/*
 * rewind's /proc/page_sites counts the pages in use outside kmalloc by the
 * kernel function that asked for them, for the leak check to name a
 * leaked page's maker: 256 touched anonymous pages show as one site grown
 * by at least 256, and munmap takes them back off it.
 */
TEST(page_sites_count_pages_by_the_function_that_made_them)
{
	static char before[64 * 1024], after[64 * 1024], freed[64 * 1024];
	const size_t pages = 256;
	char site[128] = "";

	if (!on_rewind())
		skip("/proc/page_sites is rewind's");
	if (geteuid() != 0)
		skip("needs root");
	CHECK(read_text_file("/proc/page_sites", after, sizeof(after)) >
	      0); /* faults its buffers in */
	CHECK(read_text_file("/proc/page_sites", freed, sizeof(freed)) > 0);
	CHECK(read_text_file("/proc/page_sites", before, sizeof(before)) > 0);
	char *p = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	CHECK(p != MAP_FAILED);
	for (size_t i = 0; i < pages; i++)
		p[i * 4096] = 1;
	CHECK(read_text_file("/proc/page_sites", after, sizeof(after)) > 0);
	CHECK(site_grown_most(before, after, site, sizeof(site)) >= pages);
	CHECK_OK(munmap(p, pages * 4096));
	CHECK(read_text_file("/proc/page_sites", freed, sizeof(freed)) > 0);
	CHECK(site_count(freed, site) + pages <= site_count(after, site));
}
