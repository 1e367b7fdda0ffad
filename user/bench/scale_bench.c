/*
 * scale_bench.c - will-it-scale's shapes: how the throughput of one
 * operation grows with the tasks doing it at once, 1 .. the CPUs, the
 * tasks threads of one process (one mm: its mmap lock and page tables are
 * shared) or separate processes (each its own mm: what they share is the
 * kernel's global state, the page allocator first). Each task is pinned to
 * a CPU of its own and loops on its shape, counting operations:
 *
 *	page_fault1	map a private anonymous region, write a byte to each
 *			page (an operation per page), unmap it
 *	page_fault2	the same on a private mapping of the task's own file
 *			(each write copies the file's page)
 *	page_fault3	the same on a shared mapping of the file (a write
 *			fault on a page-cache page)
 *	mmap1		mmap and munmap the anonymous region, nothing touched
 *	mmap2		mmap and munmap a shared mapping of the file
 *	brk1		move the break up a page and back down
 *	getppid1	getppid
 *	pread2		pread one 4 KiB page of a file every task shares, all
 *			tasks the same page (will-it-scale's pread2)
 *	pread3		the same, each task a page of its own (pread3): the
 *			tasks share the file's page-cache index, not its pages
 *
 * will-it-scale maps 128 MiB per task; here a region is at most that and
 * at most an eighth of memory over the most tasks run (-m sets it; 1 MiB
 * with -q), so that 2 x region x tasks (page_fault2's file pages and its
 * copies) fits the guest. The figures are per task count: the operations
 * per second of all tasks together, over a -t interval sampled after a
 * quarter of it as warm-up, and the scaling ratio, that at the most tasks
 * over that at one (1 to N: N is perfect scaling). With -c COUNT every
 * task does COUNT operations instead, and the figure is the time from the
 * start to the last task's end over all operations: on the icount ground,
 * where vCPUs take turns and a ns is an instruction, that is the
 * instructions per operation summed over CPUs. Its growth from one task
 * to N would be what contention adds, but QEMU 7.2's icount runs a vCPU
 * only while the others are halted, so tasks that never sleep hardly meet
 * (docs/scaling.md).
 */
#define _GNU_SOURCE
#include "lib/bench.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uapi/futex.h" /* musl has no <linux/futex.h> */

#define PAGE	   4096ul
#define MIB	   (1ul << 20)
#define MAX_REGION (128 * MIB) /* will-it-scale's MEMSIZE */
#define MAX_TASKS  64

struct task {
	int index;
	int fd; /* the task's own file, for the file shapes */
	char *brk_base;
	volatile uint64_t *ops;
};

struct shape {
	const char *name;
	bool needs_file;	      /* a file of the task's own */
	void (*step)(struct task *t); /* one pass, counting each operation it does */
};

/* One cache line per counter, so that counting does not contend. */
struct counter {
	volatile uint64_t ops;
	char pad[64 - sizeof(uint64_t)];
};

/* Shared by the parent and the tasks: MAP_SHARED, so that forked tasks see it. */
struct board {
	volatile int go, stop; /* go: a futex word the tasks sleep on */
	int ready;	       /* tasks set up and waiting for go (atomic) */
	struct counter done[MAX_TASKS];
};

static struct board *board;
static size_t region;
static uint64_t count_per_task; /* -c: 0 means timed */
static int max_tasks;
static const char *only_shapes;
static int shared_fd = -1; /* the pread shapes' file, one page per task, cached */

static void
die(const char *what)
{
	fprintf(stderr, "scale_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static bool
keep_going(struct task *t)
{
	return !board->stop && (!count_per_task || *t->ops < count_per_task);
}

static void
count(struct task *t)
{
	*t->ops = *t->ops + 1;
}

static void
write_faults(struct task *t, int flags, int fd)
{
	char *p = mmap(0, region, PROT_READ | PROT_WRITE, flags, fd, 0);

	if (p == MAP_FAILED)
		die("mmap");
	for (size_t off = 0; off < region && keep_going(t); off += PAGE) {
		((volatile char *)p)[off] = 1;
		count(t);
	}
	munmap(p, region);
}

static void
page_fault1(struct task *t)
{
	write_faults(t, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

static void
page_fault2(struct task *t)
{
	write_faults(t, MAP_PRIVATE, t->fd);
}

static void
page_fault3(struct task *t)
{
	write_faults(t, MAP_SHARED, t->fd);
}

static void
map_unmap(struct task *t, int flags, int fd)
{
	void *p = mmap(0, region, PROT_READ | PROT_WRITE, flags, fd, 0);

	if (p == MAP_FAILED)
		die("mmap");
	munmap(p, region);
	count(t);
}

static void
mmap1(struct task *t)
{
	map_unmap(t, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

static void
mmap2(struct task *t)
{
	map_unmap(t, MAP_SHARED, t->fd);
}

/* The system call itself: musl's brk() refuses to move the break. */
static void
brk1(struct task *t)
{
	if ((char *)syscall(SYS_brk, t->brk_base + PAGE) != t->brk_base + PAGE)
		die("brk up");
	syscall(SYS_brk, t->brk_base);
	count(t);
}

static void
getppid1(struct task *t)
{
	getppid();
	count(t);
}

static void
pread_page(struct task *t, off_t page)
{
	char buf[PAGE];

	if (pread(shared_fd, buf, PAGE, page * (off_t)PAGE) != (ssize_t)PAGE)
		die("pread");
	count(t);
}

static void
pread2(struct task *t)
{
	pread_page(t, 0);
}

static void
pread3(struct task *t)
{
	pread_page(t, t->index);
}

static const struct shape shapes[] = {
	{ "page_fault1", false, page_fault1 },
	{ "page_fault2", true, page_fault2 },
	{ "page_fault3", true, page_fault3 },
	{ "mmap1", false, mmap1 },
	{ "mmap2", true, mmap2 },
	{ "brk1", false, brk1 },
	{ "getppid1", false, getppid1 },
	{ "pread2", false, pread2 },
	{ "pread3", false, pread3 },
};

/* A file of size bytes, unlinked at once: a hole the faults fill page by page. */
static int
unlinked_file(size_t size)
{
	const char *dirs[] = { "/tmp", "." };
	char path[64];
	int fd = -1;

	for (size_t d = 0; fd < 0 && d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		snprintf(path, sizeof(path), "%s/scale_bench.XXXXXX", dirs[d]);
		fd = mkstemp(path);
	}
	if (fd < 0)
		die("mkstemp");
	unlink(path);
	if (ftruncate(fd, (off_t)size) != 0)
		die("ftruncate");
	return fd;
}

/* The pread shapes' file: written, so that every page is in the page cache, not a hole. */
static void
make_shared_file(void)
{
	static char page[PAGE];

	shared_fd = unlinked_file(0);
	memset(page, 'r', sizeof(page));
	for (int i = 0; i < MAX_TASKS; i++)
		if (write(shared_fd, page, PAGE) != (ssize_t)PAGE)
			die("write");
}

/* Pinned as will-it-scale pins: task i on CPU i, so no two share one. */
static void
pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set); /* where it is refused, the scheduler places it */
}

struct task_start {
	const struct shape *shape;
	int index;
};

static void *
task_main(void *arg)
{
	struct task_start *start = arg;
	struct task t = { .index = start->index, .fd = -1 };

	pin(t.index);
	t.ops = &board->done[t.index].ops;
	if (start->shape->needs_file)
		t.fd = unlinked_file(region);
	t.brk_base = (char *)syscall(SYS_brk, 0);
	__atomic_add_fetch(&board->ready, 1, __ATOMIC_SEQ_CST);
	while (!board->go)
		syscall(SYS_futex, &board->go, FUTEX_WAIT, 0, NULL, NULL, 0);
	while (keep_going(&t))
		start->shape->step(&t);
	if (t.fd >= 0)
		close(t.fd);
	return NULL;
}

static uint64_t
total_ops(int tasks)
{
	uint64_t sum = 0;

	for (int i = 0; i < tasks; i++)
		sum += board->done[i].ops;
	return sum;
}

static void
sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void
wait_children(int children)
{
	for (int i = 0; i < children; i++) {
		int status;

		if (wait(&status) < 0)
			die("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "scale_bench: a task failed (status %#x)\n", status);
			exit(1);
		}
	}
}

/*
 * Every wait here sleeps rather than spins: on the icount ground a vCPU
 * runs only while the others are halted (docs/grounds.md), so a task
 * spinning for the parent's go on one vCPU would keep the parent on
 * another from ever setting it.
 *
 * The figure of one point, once the tasks are waiting: operations per
 * second over the interval after warm-up (longer if no task ran in it);
 * with -c, ns per operation from go to the end of the last task. The
 * children hold the tasks: a process each, or one holding every thread.
 */
static double
measure(int tasks, int children)
{
	while (__atomic_load_n(&board->ready, __ATOMIC_SEQ_CST) < tasks)
		sleep_seconds(0.001);
	double t0 = bench_now_ns();
	board->go = 1;
	syscall(SYS_futex, &board->go, FUTEX_WAKE, MAX_TASKS, NULL, NULL, 0);
	if (count_per_task) {
		wait_children(children);
		return (bench_now_ns() - t0) / (double)total_ops(tasks);
	}
	sleep_seconds(bench_seconds() / 4);
	uint64_t ops0 = total_ops(tasks);
	double from = bench_now_ns();
	uint64_t ops1;
	do /* a loaded host may not run a task for a whole interval: a rate needs operations */
		sleep_seconds(bench_seconds());
	while ((ops1 = total_ops(tasks)) == ops0);
	double to = bench_now_ns();
	board->stop = 1;
	wait_children(children);
	return (ops1 - ops0) / ((to - from) / 1e9);
}

static pid_t
fork_child(void)
{
	fflush(stdout); /* no buffered line printed twice */
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	return pid;
}

/*
 * The threads of a point live in a process forked for them, as each of
 * will-it-scale's runs is a program of its own: what an earlier point left
 * in an address space (rewind keeps an unmapped range's empty page tables
 * until the mm goes, and munmap walks them) does not weigh on the next.
 */
static double
run_threads(const struct shape *shape, int tasks)
{
	if (fork_child() == 0) {
		struct task_start starts[MAX_TASKS];
		pthread_t threads[MAX_TASKS];

		for (int i = 0; i < tasks; i++) {
			starts[i] = (struct task_start){ shape, i };
			if ((errno = pthread_create(&threads[i], NULL, task_main, &starts[i])))
				die("pthread_create");
		}
		for (int i = 0; i < tasks; i++)
			pthread_join(threads[i], NULL);
		_exit(0);
	}
	return measure(tasks, 1);
}

static double
run_processes(const struct shape *shape, int tasks)
{
	for (int i = 0; i < tasks; i++) {
		if (fork_child() == 0) {
			struct task_start start = { shape, i };
			task_main(&start);
			_exit(0);
		}
	}
	return measure(tasks, tasks);
}

static const struct {
	const char *name;
	double (*run)(const struct shape *shape, int tasks);
} modes[] = { { "threads", run_threads }, { "processes", run_processes } };

/* The figures of one shape in one mode, 1 .. max_tasks tasks, and the ratio of the ends. */
static void
run_curve(const struct shape *shape, int mode)
{
	char metric[96];
	double first = 0, last = 0;

	for (int tasks = 1; tasks <= max_tasks; tasks++) {
		memset(board, 0, sizeof(*board));
		last = modes[mode].run(shape, tasks);
		if (tasks == 1)
			first = last;
		bench_metric_name(metric, sizeof(metric), "%s_%s_t%d%s", shape->name,
				  modes[mode].name, tasks, count_per_task ? "_ns" : "");
		bench_result(metric, last, count_per_task ? "ns" : "ops/s");
	}
	if (max_tasks < 2)
		return;
	bench_metric_name(metric, sizeof(metric), "%s_%s_%s", shape->name, modes[mode].name,
			  count_per_task ? "ns_growth" : "scaling");
	bench_result(metric, last / first, "x");
}

static bool
shape_chosen(const char *name)
{
	size_t len = strlen(name);

	if (!only_shapes)
		return true;
	for (const char *p = only_shapes; (p = strstr(p, name)); p += len)
		if ((p == only_shapes || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
			return true;
	return false;
}

/* At most MAX_REGION and an eighth of memory over the tasks, in whole MiB (a power of two). */
static size_t
default_region(void)
{
	struct sysinfo si;
	size_t fit, size = MIB;

	if (bench_quick())
		return MIB;
	if (sysinfo(&si) != 0)
		die("sysinfo");
	fit = (size_t)si.totalram * si.mem_unit / 8 / max_tasks;
	while (size * 2 <= fit && size * 2 <= MAX_REGION)
		size *= 2;
	return size;
}

static int
option(int c, const char *arg)
{
	long v = atol(arg);

	if (c == 'm' && v > 0 && (size_t)v <= MAX_REGION / MIB)
		region = v * MIB;
	else if (c == 'c' && v > 0)
		count_per_task = v;
	else if (c == 'n' && v > 0 && v <= MAX_TASKS)
		max_tasks = v;
	else if (c == 's')
		only_shapes = arg;
	else
		return -1;
	return 0;
}

static const struct bench_help help = {
	.name = "scale",
	.about =
		"will-it-scale's shapes (page_fault1/2/3, mmap1/2, brk1, getppid1, pread2/3),\n"
		"threads of one process and separate processes, 1 .. N tasks pinned one per CPU:\n"
		"operations per second of all tasks (<shape>_<mode>_t<tasks>, ops/s) and the scaling ratio, at N\n"
		"over at 1 (<shape>_<mode>_scaling, x). With -c: ns per operation from start to the\n"
		"last task's end (<shape>_<mode>_t<tasks>_ns; instructions on the icount ground)\n"
		"and its growth from 1 task to N (<shape>_<mode>_ns_growth, x).",
	.synopsis = "[-n TASKS] [-m MIB] [-c COUNT] [-s SHAPE,...]",
	.options =
		"  -n TASKS    the most tasks (default: the CPUs online, at most 64)\n"
		"  -m MIB      region per task (default: at most 128 and an eighth of memory\n"
		"              over TASKS; 1 with -q)\n"
		"  -c COUNT    every task does COUNT operations (pages for the page_fault\n"
		"              shapes); the figure is ns per operation (default: timed, -t)\n"
		"  -s SHAPES   only these shapes, comma-separated\n",
};

int
main(int argc, char **argv)
{
	bench_init_opts(argc, argv, &help, "n:m:c:s:", option);
	if (!max_tasks) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		max_tasks = cpus < 1 ? 1 : cpus > MAX_TASKS ? MAX_TASKS : cpus;
	}
	if (!region)
		region = default_region();
	board = mmap(0, sizeof(*board), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (board == MAP_FAILED)
		die("mmap");
	make_shared_file();
	printf("# scale: 1 .. %d tasks, %zu MiB region per task, %s\n", max_tasks, region / MIB,
	       count_per_task ? "a fixed count per task" : "timed");
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
		for (int mode = 0; mode < 2; mode++)
			if (shape_chosen(shapes[s].name))
				run_curve(&shapes[s], mode);
	return 0;
}
