/*
 * proc.c - usertests: /proc (meminfo, status, maps, uptime, cpuinfo, mounts) and
 * rewind's knobs in /proc/sys/rewind.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lib/procfile.h"

TEST(proc_meminfo)
{
	char text[8192];
	unsigned long long total, mfree;

	EXPECT_OK(read_text_file("/proc/meminfo", text, sizeof(text)));
	CHECK(field_ull(text, "MemTotal", &total) == 0 && total > 0);
	CHECK(field_ull(text, "MemFree", &mfree) == 0 && mfree <= total);
	CHECK(strstr(text, " kB\n") != NULL);
}

TEST(proc_self_status)
{
	char text[4096], name[64], state[32];
	unsigned long long pid, ppid;

	const char *base = strrchr(self_path, '/') ? strrchr(self_path, '/') + 1 : self_path;

	EXPECT_OK(read_text_file("/proc/self/status", text, sizeof(text)));
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

	EXPECT_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		close(p[1]);
		read(p[0], &c, 1);
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	EXPECT_OK(read_text_file(path, text, sizeof(text)));
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

	EXPECT_OK(read_text_file("/proc/self/maps", text, sizeof(text)));
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

	EXPECT_OK(read_text_file("/proc/uptime", text, sizeof(text)));
	CHECK(sscanf(text, "%lf %lf", &up, &idle) == 2 && up > 0);
	EXPECT_OK(read_text_file("/proc/cpuinfo", text, sizeof(text)));
	CHECK(strstr(text, "processor") != NULL);
	EXPECT_ERR(ENOENT, open("/proc/no-such-file", O_RDONLY));
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

	EXPECT_OK(read_text_file("/proc/mounts", text, sizeof(text)));
	EXPECT_OK(read_text_file("/proc/self/mounts", self, sizeof(self)));
	CHECK(strcmp(text, self) == 0);
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
			EXPECT_OK(statfs("/", &st));
			CHECK(strcmp(dev, "rootfs") == 0);
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
	EXPECT_ERR(ENOENT, open("/proc/sys/rewind/no-such-knob", O_RDONLY));
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
	CHECK(strstr(text, "\ttuxcall") == NULL); /* only what rewind implements */
}
