/*
 * lat_core.c - lmbench's core latencies that rewind's other benchmarks do not
 * already take (syscall_bench has the null call, proc_bench fork + exit and
 * the pipe round trip, pagefault_bench the faults and mmap + munmap), in
 * lmbench3's shapes: a one-byte read of /dev/zero and write to /dev/null
 * (lat_syscall read/write), stat and open + close of a file (lat_syscall
 * stat/open), installing a signal handler and catching a signal sent to
 * oneself (lat_sig install/catch), fork + exec of a program that exits at
 * once (lat_proc exec: this binary again, with -x), a one-byte round trip
 * between two processes over an AF_UNIX stream socket pair (lat_unix), the
 * same over two pipes with both processes on one CPU (lat_ctx's two-process
 * ring: two context switches per trip), and select, poll and epoll_wait
 * over the write ends of PIPES pipes, every one ready (lat_select).
 * The coreops experiment (experiments/coreops.toml) sets them beside Linux's.
 */
#define _GNU_SOURCE
#include "lib/bench.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PIPES 10 /* lat_select's smallest sweep point is 10 descriptors */

static void
die(const char *what)
{
	perror(what);
	exit(1);
}

static void
read_dev_zero(void *arg)
{
	char c;

	if (read(*(int *)arg, &c, 1) != 1)
		die("lat_core: read /dev/zero");
}

static void
write_dev_null(void *arg)
{
	char c = 0;

	if (write(*(int *)arg, &c, 1) != 1)
		die("lat_core: write /dev/null");
}

static void
stat_file(void *arg)
{
	struct stat st;

	if (stat(arg, &st) < 0)
		die("lat_core: stat");
}

static void
open_close_file(void *arg)
{
	int fd = open(arg, O_RDONLY);

	if (fd < 0)
		die("lat_core: open");
	close(fd);
}

static volatile sig_atomic_t caught;

static void
on_signal(int sig)
{
	(void)sig;
	caught++;
}

static void
install_handler(void *arg)
{
	(void)arg;
	struct sigaction sa = { .sa_handler = on_signal };

	if (sigaction(SIGUSR1, &sa, NULL) < 0)
		die("lat_core: sigaction");
}

static void
catch_signal(void *arg)
{
	(void)arg;
	if (kill(getpid(), SIGUSR1) < 0)
		die("lat_core: kill");
}

static void
fork_exec_wait(void *arg)
{
	char *const argv[] = { arg, "-x", NULL };
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
		die("lat_core: fork/exec");
}

/* The path of this program to execute: argv[0] itself, or found on PATH as the shell found it. */
static void
find_self(const char *argv0, char *path, size_t size)
{
	const char *dirs = getenv("PATH");

	snprintf(path, size, "%s", argv0);
	if (strchr(argv0, '/') || !dirs)
		return;
	for (const char *dir = dirs; *dir;) {
		size_t len = strcspn(dir, ":");
		snprintf(path, size, "%.*s/%s", (int)len, dir, argv0);
		if (access(path, X_OK) == 0)
			return;
		dir += len + (dir[len] == ':');
	}
	die("lat_core: cannot find itself on PATH");
}

/* A partner process answering every byte on peer_in with one on peer_out, until end of file. */
struct partner {
	int in, out;	       /* this side's ends (one socket may be both) */
	int peer_in, peer_out; /* the partner's ends */
	pid_t pid;
};

static void
close_pair(int a, int b)
{
	close(a);
	if (b != a)
		close(b);
}

static void
start_partner(struct partner *p)
{
	p->pid = fork();
	if (p->pid < 0)
		die("lat_core: fork");
	if (p->pid == 0) {
		char c;
		close_pair(p->in, p->out); /* else its own copy keeps the end of file away */
		while (read(p->peer_in, &c, 1) == 1)
			if (write(p->peer_out, &c, 1) != 1)
				break;
		_exit(0);
	}
	close_pair(p->peer_in, p->peer_out);
}

static void
stop_partner(struct partner *p)
{
	close_pair(p->out, p->in);
	waitpid(p->pid, NULL, 0);
}

static void
round_trip(void *arg)
{
	struct partner *p = arg;
	char c = 'x';

	if (write(p->out, &c, 1) != 1 || read(p->in, &c, 1) != 1)
		die("lat_core: round trip");
}

static void
measure_unix_rtt(void)
{
	int sv[2];
	struct partner p;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		die("lat_core: socketpair");
	p = (struct partner){ .in = sv[0], .out = sv[0], .peer_in = sv[1], .peer_out = sv[1] };
	start_partner(&p);
	bench_report("af_unix_rtt", bench_measure(round_trip, &p), "us");
	stop_partner(&p);
}

/* Both processes on the first CPU this one may use: every trip switches twice. */
static void
measure_pipe_rtt_one_cpu(void)
{
	cpu_set_t all, one;
	int to_partner[2], from_partner[2];
	struct partner p;

	if (sched_getaffinity(0, sizeof(all), &all) < 0)
		die("lat_core: sched_getaffinity");
	CPU_ZERO(&one);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &all)) {
			CPU_SET(cpu, &one);
			break;
		}
	if (sched_setaffinity(0, sizeof(one), &one) < 0)
		die("lat_core: sched_setaffinity");
	if (pipe(to_partner) || pipe(from_partner))
		die("lat_core: pipe");
	p = (struct partner){ .in = from_partner[0],
			      .out = to_partner[1],
			      .peer_in = to_partner[0],
			      .peer_out = from_partner[1] };
	start_partner(&p);
	bench_report("pipe_rtt_1cpu", bench_measure(round_trip, &p), "us");
	stop_partner(&p);
	if (sched_setaffinity(0, sizeof(all), &all) < 0)
		die("lat_core: sched_setaffinity");
}

struct ready_pipes {
	int write_end[PIPES];
	int read_end[PIPES];
	int epfd;
};

static void
select_ready(void *arg)
{
	struct ready_pipes *rp = arg;
	fd_set w;
	struct timeval now = { 0, 0 };

	FD_ZERO(&w);
	for (int i = 0; i < PIPES; i++)
		FD_SET(rp->write_end[i], &w);
	if (select(rp->write_end[PIPES - 1] + 1, NULL, &w, NULL, &now) != PIPES)
		die("lat_core: select");
}

static void
poll_ready(void *arg)
{
	struct ready_pipes *rp = arg;
	struct pollfd fds[PIPES];

	for (int i = 0; i < PIPES; i++)
		fds[i] = (struct pollfd){ .fd = rp->write_end[i], .events = POLLOUT };
	if (poll(fds, PIPES, 0) != PIPES)
		die("lat_core: poll");
}

static void
epoll_ready(void *arg)
{
	struct ready_pipes *rp = arg;
	struct epoll_event events[PIPES];

	if (epoll_wait(rp->epfd, events, PIPES, 0) != PIPES)
		die("lat_core: epoll_wait");
}

static void
measure_readiness(void)
{
	struct ready_pipes rp;

	rp.epfd = epoll_create1(0);
	if (rp.epfd < 0)
		die("lat_core: epoll_create1");
	for (int i = 0; i < PIPES; i++) {
		int fds[2];
		if (pipe(fds))
			die("lat_core: pipe");
		rp.read_end[i] = fds[0];
		rp.write_end[i] = fds[1];
		struct epoll_event ev = { .events = EPOLLOUT, .data.fd = fds[1] };
		if (epoll_ctl(rp.epfd, EPOLL_CTL_ADD, fds[1], &ev) < 0)
			die("lat_core: epoll_ctl");
	}
	bench_report("select_10_pipes", bench_measure(select_ready, &rp), "ns");
	bench_report("poll_10_pipes", bench_measure(poll_ready, &rp), "ns");
	bench_report("epoll_10_pipes", bench_measure(epoll_ready, &rp), "ns");
	for (int i = 0; i < PIPES; i++) {
		close(rp.read_end[i]);
		close(rp.write_end[i]);
	}
	close(rp.epfd);
}

/* A file of one byte for stat and open: /tmp where there is one, else the working directory. */
static void
make_file(char *path, size_t size)
{
	const char *dirs[] = { "/tmp", "." };
	int fd = -1;

	for (size_t d = 0; fd < 0 && d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		snprintf(path, size, "%s/lat_core.XXXXXX", dirs[d]);
		fd = mkstemp(path);
	}
	if (fd < 0 || write(fd, "x", 1) != 1)
		die("lat_core: a file to stat");
	close(fd);
}

static int
open_or_die(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		die(path);
	return fd;
}

static const struct bench_help help = {
	.name = "lat_core",
	.about = "lmbench's core latencies beyond syscall_bench, proc_bench and pagefault_bench:\n"
		 "1-byte read of /dev/zero and write to /dev/null, stat, open + close,\n"
		 "sigaction, a caught signal (ns); fork + exec + wait, AF_UNIX and one-CPU pipe\n"
		 "round trips (us); select, poll and epoll_wait over 10 ready pipes (ns).",
	.synopsis = "",
	.options = "",
};

int
main(int argc, char **argv)
{
	char file[64], self[256];

	/* The program fork_exec_wait executes: this one, ending at once. */
	if (argc == 2 && strcmp(argv[1], "-x") == 0)
		return 0;
	bench_init(argc, argv, &help);

	int zero = open_or_die("/dev/zero", O_RDONLY);
	int null = open_or_die("/dev/null", O_WRONLY);
	bench_report("read_dev_zero", bench_measure(read_dev_zero, &zero), "ns");
	bench_report("write_dev_null", bench_measure(write_dev_null, &null), "ns");
	close(zero);
	close(null);

	make_file(file, sizeof(file));
	bench_report("stat", bench_measure(stat_file, file), "ns");
	bench_report("open_close", bench_measure(open_close_file, file), "ns");
	unlink(file);

	bench_report("sig_install", bench_measure(install_handler, 0), "ns");
	install_handler(0);
	bench_report("sig_catch", bench_measure(catch_signal, 0), "ns");
	if (!caught)
		die("lat_core: no signal caught");

	find_self(argv[0], self, sizeof(self));
	bench_report("fork_exec_wait", bench_measure(fork_exec_wait, self), "us");
	measure_unix_rtt();
	measure_pipe_rtt_one_cpu();
	measure_readiness();
	return 0;
}
