/*
 * proc_pid.c - usertests: what /proc shows of another process, read from
 * its address space (cmdline, environ, auxv, stat, statm, status, maps), of its
 * open files (fdinfo), its name (comm, which prctl sets), the system call
 * it is in (syscall), the machine-wide counters ps and top read
 * (/proc/stat, /proc/loadavg), and which of its entries a thread's
 * directory (task/<tid>) shows.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/procfile.h"
#include "uapi/futex.h" /* musl has no <linux/futex.h> */

/* The bytes of a /proc file (which may hold NULs); its length. */
static size_t
read_bytes(const char *path, char *buf, size_t size)
{
	int fd = CHECK_OK(open(path, O_RDONLY));
	size_t len = 0;
	ssize_t n;

	while (len < size && (n = read(fd, buf + len, size - len)) > 0)
		len += (size_t)n;
	close(fd);
	return len;
}

static void
pid_path(char *out, size_t size, pid_t pid, const char *file)
{
	snprintf(out, size, "/proc/%d/%s", pid, file);
}

/* Fields 3..52 of a stat line (field[n] is field n), split after the last ')'. */
struct stat_line {
	char state;
	unsigned long long field[53];
};

static void
read_stat(pid_t pid, struct stat_line *s)
{
	char path[64], text[1024];
	int n = 0;

	pid_path(path, sizeof(path), pid, "stat");
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	char *p = strrchr(text, ')');
	CHECK(p && p[1] == ' ');
	s->state = p[2];
	p += 3;
	memset(s->field, 0, sizeof(s->field));
	for (int i = 4; i <= 52; i++) {
		char *end;
		if (*p != ' ')
			fail("stat: field %d missing in '%s'", i, text);
		s->field[i] = strtoull(p + 1, &end, 10);
		if (end == p + 1 && p[1] != '-')
			fail("stat: field %d is not a number", i);
		if (p[1] == '-')
			strtoll(p + 1, &end, 10);
		p = end;
		n++;
	}
	CHECK(n == 49 && strcmp(p, "\n") == 0);
}

static void
read_statm(pid_t pid, unsigned long long v[7])
{
	char path[64], text[256];

	pid_path(path, sizeof(path), pid, "statm");
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	CHECK_EQ(sscanf(text, "%llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
			&v[4], &v[5], &v[6]),
		 7);
}

/*
 * A child that runs this program as `--helper ready` with known arguments
 * and environment; it ends when killed, or when the test dies (EOF on
 * its hold pipe), so that a failed test leaves nothing behind.
 */
struct ready_child {
	pid_t pid;
	int ready;		     /* read end: the child wrote a byte once it runs */
	char fdarg[16], holdarg[16]; /* its argv[3] and argv[4]: the write end, the hold pipe */
};

static const char helper_env[] = "PROCTEST=one\0B=two words"; /* two strings */

static struct ready_child
start_ready_child(void)
{
	int p[2], hold[2];
	char c;
	struct ready_child r;

	CHECK_OK(pipe(p));
	CHECK_OK(pipe2(hold, O_CLOEXEC)); /* only the child's read end crosses its execve */
	snprintf(r.fdarg, sizeof(r.fdarg), "%d", p[1]);
	r.pid = xfork();
	if (r.pid == 0) {
		int fd = dup(hold[0]);
		snprintf(r.holdarg, sizeof(r.holdarg), "%d", fd);
		char *argv[] = { "usertests-x", "--helper", "ready", r.fdarg, r.holdarg, NULL };
		char *envp[] = { (char *)helper_env, (char *)helper_env + 13, NULL };
		close(p[0]);
		execve(self_path, argv, envp);
		_exit(100);
	}
	close(p[1]);
	close(hold[0]); /* hold[1] stays open in this test until it ends */
	r.ready = p[0];
	CHECK_EQ(read(r.ready, &c, 1), 1);
	return r;
}

static void
stop_ready_child(struct ready_child *r)
{
	CHECK_OK(kill(r->pid, SIGKILL));
	expect_signaled(wait_status(r->pid), SIGKILL, "the ready helper");
	close(r->ready);
}

/* ps shows another process's command line and the environment it was given, from its memory. */
TEST(proc_pid_cmdline_and_environ)
{
	struct ready_child r = start_ready_child();
	char path[64], buf[512], want[128];
	size_t n;

	pid_path(path, sizeof(path), r.pid, "cmdline");
	n = read_bytes(path, buf, sizeof(buf));
	char arg4[16];
	snprintf(arg4, sizeof(arg4), "%d", atoi(buf + 28 + strlen(r.fdarg))); /* the child's dup */
	int wn = snprintf(want, sizeof(want), "usertests-x%c--helper%cready%c%s%c%s", 0, 0, 0,
			  r.fdarg, 0, arg4);
	CHECK(n == (size_t)wn + 1 && memcmp(buf, want, n) == 0);

	pid_path(path, sizeof(path), r.pid, "environ");
	n = read_bytes(path, buf, sizeof(buf));
	CHECK(n == sizeof(helper_env) && memcmp(buf, helper_env, n) == 0);

	/* stat's address fields bound exactly those strings. */
	struct stat_line s;
	read_stat(r.pid, &s);
	unsigned long long arg_start = s.field[48], arg_end = s.field[49];
	unsigned long long env_start = s.field[50], env_end = s.field[51];
	CHECK_EQ(arg_end - arg_start, (unsigned long long)wn + 1);
	CHECK(env_start == arg_end && env_end - env_start == sizeof(helper_env));
	CHECK(s.field[28] != 0 && s.field[28] < arg_start); /* argc sits below the strings */
	stop_ready_child(&r);
}

/* What a program that rewrites its arguments (setproctitle) shows: its text up to a NUL. */
/* auxv: the (type, value) pairs exec gave, AT_NULL last, as getauxval reads them in memory. */
TEST(proc_self_auxv_is_the_vector_exec_gave)
{
	unsigned long v[128];
	size_t len = read_bytes("/proc/self/auxv", (char *)v, sizeof(v));
	bool entry = false, pagesz = false;

	CHECK(len % (2 * sizeof(v[0])) == 0 && len >= 2 * sizeof(v[0]));
	size_t n = len / sizeof(v[0]);
	CHECK(v[n - 2] == AT_NULL && v[n - 1] == 0);
	for (size_t i = 0; i + 1 < n; i += 2) {
		entry |= v[i] == AT_ENTRY && v[i + 1] == getauxval(AT_ENTRY);
		pagesz |= v[i] == AT_PAGESZ && v[i + 1] == 4096;
	}
	CHECK(entry && pagesz);
}

TEST(proc_self_cmdline_after_setproctitle)
{
	struct stat_line s;
	char buf[8192];

	read_stat(getpid(), &s);
	char *args = (char *)(unsigned long)s.field[48];
	size_t len = s.field[49] - s.field[48];
	size_t before = read_bytes("/proc/self/cmdline", buf, sizeof(buf));
	CHECK(before == len && memcmp(buf, args, len) == 0);

	/* The whole area one title: no NUL left at its end, so Linux reads on to the first NUL. */
	memset(args, 't', len);
	size_t n = read_bytes("/proc/self/cmdline", buf, sizeof(buf));
	const char *env = (const char *)(unsigned long)s.field[50];
	CHECK_EQ(s.field[50], s.field[49]);
	CHECK_EQ(n, len + strlen(env) + 1);
	CHECK(all_bytes(buf, len, 't') && strcmp(buf + len, env) == 0);

	/* A short title ended by a NUL: up to it, NUL included. */
	memcpy(args, "title", 6);
	n = read_bytes("/proc/self/cmdline", buf, sizeof(buf));
	CHECK(n == 6 && memcmp(buf, "title", 6) == 0);
}

/* stat, statm, status and maps of another process agree with each other. */
TEST(proc_pid_memory_figures)
{
	struct ready_child r = start_ready_child();
	struct stat_line s;
	unsigned long long m[7], vmsize, vmrss, vmstk;
	char path[64], text[16384];

	unsigned long long again[7];

	/* The child may still run and fault a page or two after it said it runs: read till it sleeps. */
	for (int i = 0; i < 1000; i++) {
		read_statm(r.pid, m);
		read_stat(r.pid, &s);
		read_statm(r.pid, again);
		if (memcmp(m, again, sizeof(m)) == 0 && s.state == 'S')
			break;
		usleep(1000);
	}
	CHECK_EQ(s.state, 'S');
	CHECK_EQ(s.field[4], (unsigned long long)getpid());
	CHECK_EQ(s.field[20], 1); /* threads */
	CHECK(m[0] > 0 && m[1] > 0 && m[1] <= m[0]);
	CHECK_EQ(s.field[23], m[0] * PAGE); /* vsize in bytes, statm in pages */
	/*
	 * Resident pages: newer Linux sums per-CPU counters approximately for
	 * stat, exactly for statm, so only rewind (one count) must agree.
	 */
	CHECK(s.field[24] > 0 && s.field[24] <= m[0]);
	CHECK(!on_rewind() || s.field[24] == m[1]);
	CHECK(m[3] > 0);				      /* text */
	CHECK(s.field[26] != 0 && s.field[26] < s.field[27]); /* start and end of code */
	pid_path(path, sizeof(path), r.pid, "status");
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	CHECK(field_ull(text, "VmSize", &vmsize) == 0 && vmsize == m[0] * PAGE / 1024);
	CHECK(field_ull(text, "VmRSS", &vmrss) == 0 && vmrss > 0 && vmrss <= vmsize);
	CHECK(!on_rewind() || vmrss == m[1] * PAGE / 1024);
	CHECK(field_ull(text, "VmStk", &vmstk) == 0 && vmstk > 0);
	CHECK(find_field(text, "RssAnon") && find_field(text, "RssFile") &&
	      find_field(text, "VmExe"));

	/* The start of the stack lies in the [stack] line of its maps. */
	pid_path(path, sizeof(path), r.pid, "maps");
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	bool found = false;
	for (char *line = text; line && *line;
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && s.field[28] >= lo && s.field[28] < hi)
			found = strncmp(strchr(line, '\n') - 7, "[stack]", 7) == 0;
	}
	CHECK(found);
	stop_ready_child(&r);
}

/* A zombie keeps its stat line, but has no memory to show. */
TEST(proc_pid_of_a_zombie)
{
	struct ready_child r = start_ready_child();
	struct stat_line s;
	unsigned long long m[7];
	char path[64], buf[256];

	CHECK_OK(kill(r.pid, SIGKILL));
	for (int i = 0; i < 100000; i++) {
		read_stat(r.pid, &s);
		if (s.state == 'Z')
			break;
		usleep(1000);
	}
	CHECK_EQ(s.state, 'Z');
	CHECK(s.field[23] == 0 && s.field[24] == 0 && s.field[48] == 0);
	read_statm(r.pid, m);
	CHECK(m[0] == 0 && m[1] == 0);
	pid_path(path, sizeof(path), r.pid, "cmdline");
	CHECK_EQ(read_bytes(path, buf, sizeof(buf)), 0);
	pid_path(path, sizeof(path), r.pid, "maps");
	CHECK_EQ(read_bytes(path, buf, sizeof(buf)), 0);
	expect_signaled(wait_status(r.pid), SIGKILL, "the zombie");
	close(r.ready);
	CHECK(access(path, F_OK) == -1 && errno == ENOENT);
}

/*
 * /proc/<pid>/syscall names the call a process sleeps in, with its six
 * arguments, then its stack and instruction pointers: nine fields, the
 * number in decimal, the rest in hex (Linux's format). leakcheck names what
 * a leftover process sleeps in by it. (A reader's own is not asked: Linux
 * makes the text at the read, rewind's /proc at the open.)
 */
TEST(proc_pid_syscall_names_the_call_a_sleeper_is_in)
{
	char path[64], text[256], byte;
	unsigned long fd_arg = 0, rest[7];
	long nr = -2;
	int p[2];
	pid_t pid;

	CHECK_OK(pipe(p));
	pid = CHECK_OK(fork());
	if (pid == 0) {
		_exit(read(p[0], &byte, 1) == 1 ? 0 : 1); /* sleeps until the parent writes */
	}
	pid_path(path, sizeof(path), pid, "syscall");
	/* Until the child is in its read: before, it runs ("running") or is in another call. */
	for (int i = 0; i < 100000; i++) {
		if (read_text_file(path, text, sizeof(text)) > 0 &&
		    sscanf(text, "%ld 0x%lx", &nr, &fd_arg) == 2 && nr == SYS_read &&
		    fd_arg == (unsigned long)p[0])
			break;
		usleep(1000);
	}
	CHECK_EQ(nr, SYS_read);
	CHECK_EQ(fd_arg, (unsigned long)p[0]);
	CHECK(sscanf(text, "%*d %*x %lx %lx %lx %lx %lx %lx %lx", &rest[0], &rest[1], &rest[2],
		     &rest[3], &rest[4], &rest[5], &rest[6]) == 7);
	CHECK_EQ(rest[1], 1UL); /* the count */
	CHECK_OK(write(p[1], "x", 1));
	expect_exited(wait_status(pid), 0, "the reader");
	close(p[0]);
	close(p[1]);
}

/* statm follows memory as it is touched and unmapped. */
TEST(proc_self_statm_tracks_memory)
{
	const size_t pages = 1024;
	unsigned long long before[7], touched[7], after[7];

	read_statm(getpid(), before);
	char *p = map_anon(pages * PAGE, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < pages; i++)
		p[i * PAGE] = 1;
	read_statm(getpid(), touched);
	CHECK(touched[0] >= before[0] + pages);
	/* Linux may count the last 64 faults of a task late (its per-task cache). */
	CHECK(touched[1] >= before[1] + pages - 64);
	CHECK_OK(munmap(p, pages * PAGE));
	read_statm(getpid(), after);
	CHECK(after[0] + pages <= touched[0]);
	CHECK(after[1] + pages - 64 <= touched[1]);
}

static void
fdinfo_fields(pid_t pid, int fd, unsigned long long *pos, unsigned long *flags,
	      unsigned long long *ino)
{
	char path[64], text[1024];
	const char *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	CHECK_EQ(field_ull(text, "pos", pos), 0);
	CHECK((f = find_field(text, "flags")) && f[0] == '0');
	*flags = strtoul(f, NULL, 8);
	CHECK(find_field(text, "mnt_id") != NULL);
	CHECK_EQ(field_ull(text, "ino", ino), 0);
}

TEST(proc_fdinfo)
{
	int fd = CHECK_OK(open("f", O_RDWR | O_CREAT | O_CLOEXEC, 0644));
	unsigned long long pos, ino;
	unsigned long flags;
	struct stat st;
	char path[64];

	CHECK_EQ(write(fd, "hello", 5), 5);
	CHECK_OK(fstat(fd, &st));
	fdinfo_fields(getpid(), fd, &pos, &flags, &ino);
	CHECK(pos == 5 && ino == st.st_ino);
	CHECK((flags & O_ACCMODE) == O_RDWR && (flags & O_CLOEXEC));
	CHECK_OK(fcntl(fd, F_SETFD, 0));
	fdinfo_fields(getpid(), fd, &pos, &flags, &ino);
	CHECK(!(flags & O_CLOEXEC));

	/* Another process's, at its own offset. */
	pid_t pid = xfork();
	if (pid == 0) {
		lseek(fd, 2, SEEK_SET);
		pause();
		_exit(0);
	}
	for (int i = 0; i < 100000 && lseek(fd, 0, SEEK_CUR) != 2; i++)
		usleep(1000); /* the offset is shared: it moves once the child ran */
	fdinfo_fields(pid, fd, &pos, &flags, &ino);
	CHECK(pos == 2 && ino == st.st_ino);
	CHECK_OK(kill(pid, SIGKILL));
	expect_signaled(wait_status(pid), SIGKILL, "the child");
	close(fd);
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	CHECK_ERR(ENOENT, open(path, O_RDONLY));
}

/* The line of /proc/stat that name begins, past the name and its space; NULL when missing. */
static const char *
stat_line(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (strncmp(l, name, len) == 0 && l[len] == ' ')
			return l + len + 1;
	return NULL;
}

/* The counter lines of /proc/stat, by name; -1 when missing. */
static long long
stat_counter(const char *text, const char *name)
{
	const char *l = stat_line(text, name);

	return l ? atoll(l) : -1;
}

TEST(proc_stat)
{
	char text[16384], again[16384];
	unsigned long long user, nice, sys, idle;

	CHECK_OK(read_text_file("/proc/stat", text, sizeof(text)));
	CHECK_EQ(sscanf(text, "cpu  %llu %llu %llu %llu", &user, &nice, &sys, &idle), 4);
	CHECK(strstr(text, "\ncpu0 ") != NULL);
	long long btime = stat_counter(text, "btime");
	CHECK(btime > 0 && btime <= (long long)time(NULL));
	CHECK(stat_counter(text, "procs_running") >= 1); /* this process */
	CHECK(stat_counter(text, "procs_blocked") >= 0);
	CHECK(stat_counter(text, "intr") >= 0);

	/* A fork counts as a process; sleeping switches context. */
	pid_t pid = xfork();
	if (pid == 0)
		_exit(0);
	expect_exit(pid, 0, "child");
	usleep(1000);
	CHECK_OK(read_text_file("/proc/stat", again, sizeof(again)));
	CHECK(stat_counter(again, "processes") > stat_counter(text, "processes"));
	CHECK(stat_counter(again, "ctxt") > stat_counter(text, "ctxt"));
	CHECK_EQ(stat_counter(again, "btime"), btime);
}

/*
 * The 8th column of the cpu line named name (steal: the hypervisor's, 0
 * without a steal clock), after checking that the line has Linux's ten.
 */
static long long
stat_steal(const char *text, const char *name)
{
	unsigned long long c[10];
	const char *l = stat_line(text, name);

	if (!l || sscanf(l, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &c[0], &c[1],
			 &c[2], &c[3], &c[4], &c[5], &c[6], &c[7], &c[8], &c[9]) != 10)
		return -1;
	return (long long)c[7];
}

TEST(proc_stat_steal)
{
	char text[16384], again[16384];

	CHECK_OK(read_text_file("/proc/stat", text, sizeof(text)));
	long long total = stat_steal(text, "cpu"), cpu0 = stat_steal(text, "cpu0");
	CHECK(total >= 0 && cpu0 >= 0);
	CHECK(total >= cpu0); /* the first line sums the CPUs' */
	usleep(20000);
	CHECK_OK(read_text_file("/proc/stat", again, sizeof(again)));
	CHECK(stat_steal(again, "cpu") >= total); /* a clock: it never goes back */
	CHECK(stat_steal(again, "cpu0") >= cpu0);
}

TEST(proc_loadavg)
{
	char text[256];
	double a1, a5, a15;
	int running, total, last;

	CHECK_OK(read_text_file("/proc/loadavg", text, sizeof(text)));
	CHECK_EQ(sscanf(text, "%lf %lf %lf %d/%d %d", &a1, &a5, &a15, &running, &total, &last), 6);
	CHECK(a1 >= 0 && a5 >= 0 && a15 >= 0);
	CHECK(running >= 1 && total >= running && total >= 2); /* this process and its parent */
	CHECK(last > 0);
	CHECK_EQ(strchr(text, '\n'), text + strlen(text) - 1);
}

/* The name that /proc/<pid>/comm and stat's second field show of pid. */
static void
expect_comm(pid_t pid, const char *want)
{
	char path[64], text[64], line[64];

	pid_path(path, sizeof(path), pid, "comm");
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	snprintf(line, sizeof(line), "%s\n", want);
	if (strcmp(text, line) != 0)
		fail("%s: '%s', want '%s'", path, text, want);
	pid_path(path, sizeof(path), pid, "stat");
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	snprintf(line, sizeof(line), "%d (%s) ", pid, want);
	CHECK_EQ(strncmp(text, line, strlen(line)), 0);
}

/* prctl's thread name is what ps shows: set, read back, cut at 15 bytes, renamed through /proc. */
TEST(prctl_name_and_proc_comm)
{
	char name[16];

	CHECK_OK(prctl(PR_SET_NAME, "renamed"));
	memset(name, 'x', sizeof(name));
	CHECK_OK(prctl(PR_GET_NAME, name));
	CHECK_EQ(strcmp(name, "renamed"), 0);
	expect_comm(getpid(), "renamed");
	CHECK_OK(prctl(PR_SET_NAME, "a-name-longer-than-fifteen-bytes"));
	CHECK_OK(prctl(PR_GET_NAME, name));
	CHECK_EQ(strcmp(name, "a-name-longer-t"), 0);
	CHECK_ERR(EFAULT, prctl(PR_SET_NAME, (char *)bad_addrs[0]));
	CHECK_ERR(EFAULT, prctl(PR_GET_NAME, (char *)bad_addrs[0]));
	CHECK_ERR(EINVAL, prctl(-1, 0, 0, 0, 0));

	/* A process renames itself through /proc; another may not. */
	int ready[2];
	CHECK_OK(pipe(ready));
	pid_t pid = xfork();
	if (pid == 0) {
		int fd = open("/proc/self/comm", O_WRONLY);
		_exit(fd < 0 || write(fd, "child", 5) != 5 || write(ready[1], "", 1) != 1
			      ? 1
			      : (pause(), 0));
	}
	char c;
	CHECK_EQ(read(ready[0], &c, 1), 1);
	expect_comm(pid, "child");
	char path[64];
	pid_path(path, sizeof(path), pid, "comm");
	int fd = CHECK_OK(open(path, O_WRONLY));
	CHECK_ERR(EINVAL, write(fd, "other", 5));
	close(fd);
	expect_comm(pid, "child");
	CHECK_OK(kill(pid, SIGKILL));
	expect_signaled(wait_status(pid), SIGKILL, "the child");
	close(ready[0]);
	close(ready[1]);
}

static int sleeper_word;

static void *
sleep_on_futex(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "futex-sleeper");
	syscall(SYS_futex, &sleeper_word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
	return NULL;
}

/* Field 1 (the pid), 2 (the name) and 3 (the state) of a stat file. */
static void
stat_fields(const char *path, int *pid, char name[32], char *state)
{
	FILE *f = fopen(path, "r");

	CHECK(f != NULL);
	CHECK_EQ(fscanf(f, "%d (%31[^)]) %c", pid, name, state), 3);
	fclose(f);
}

/*
 * /proc/<pid>/task/<tid>/stat and status are the thread's own: its tid, its
 * name, and 'S' while it sleeps in a futex as the main thread runs.
 */
TEST(proc_task_stat_is_the_threads_own)
{
	pthread_t t;
	char path[96], name[32], state = '?';
	int pid = 0, tid = 0;

	CHECK_EQ(pthread_create(&t, NULL, sleep_on_futex, NULL), 0);
	for (int tries = 0; tries < 2000 && state != 'S'; tries++) {
		usleep(1000);
		DIR *d = opendir("/proc/self/task");
		struct dirent *e;
		CHECK(d != NULL);
		while ((e = readdir(d)))
			if (atoi(e->d_name) > 0 && atoi(e->d_name) != getpid())
				tid = atoi(e->d_name);
		closedir(d);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", getpid(), tid);
		stat_fields(path, &pid, name, &state);
	}
	CHECK_EQ(state, 'S');
	CHECK_EQ(pid, tid);
	CHECK(strcmp(name, "futex-sleeper") == 0);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", getpid(), getpid());
	stat_fields(path, &pid, name, &state);
	CHECK_EQ(pid, getpid());
	CHECK_EQ(state, 'R');
	sleeper_word = 1;
	syscall(SYS_futex, &sleeper_word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
}

/* Whether the directory PATH lists NAME. */
static bool
dir_lists(const char *path, const char *name)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool found = false;

	CHECK(d != NULL);
	while ((e = readdir(d)))
		found = found || strcmp(e->d_name, name) == 0;
	closedir(d);
	return found;
}

/*
 * A thread's directory holds the per-thread entries, not the process-wide
 * task, timerslack_ns and coredump_filter: with a "task" of its own, /proc
 * had no bottom (/proc/1/task/1/task/1/...), and trinity's walk of it grew
 * until the OOM killer ended trinity.
 */
TEST(proc_task_tid_has_no_process_only_entries)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d", getpid(), getpid());
	CHECK(dir_lists(path, "stat"));
	CHECK(!dir_lists(path, "task"));
	CHECK(!dir_lists(path, "timerslack_ns"));
	CHECK(!dir_lists(path, "coredump_filter"));
	CHECK(dir_lists("/proc/self", "task"));
	CHECK(dir_lists("/proc/self", "timerslack_ns"));
	CHECK(dir_lists("/proc/self", "coredump_filter"));
	snprintf(path, sizeof(path), "/proc/%d/task/%d/task", getpid(), getpid());
	CHECK_ERR(ENOENT, access(path, F_OK));
}
