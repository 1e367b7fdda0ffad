/*
 * oom_choice.c - usertests: what steers the out-of-memory killer's choice
 * beside resident memory. /proc/<pid>/oom_score_adj (and oom_adj, its
 * older scale): its range, who may lower it, that it is inherited, that
 * -1000 means never and that a volunteer at 1000 goes first; and
 * page-table pages, which a process touching one byte per 2 MiB makes
 * without holding resident memory: VmPTE shows them, and such a process
 * is the victim rather than a root bystander with more resident pages.
 *
 * The choices need a small machine (at most 2 GiB, rewind's VMs) and are
 * skipped on a big host; the files' rules run on Linux too (as root).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#define ADJ		"/proc/self/oom_score_adj"
#define LEGACY		"/proc/self/oom_adj"
#define TWO_MIB		(2ul << 20)
#define BYSTANDER_BYTES (48ul << 20)

/* Writes text to path: 0, or the errno of the write. */
static int
write_adj(const char *path, const char *text)
{
	int fd = CHECK_OK(open(path, O_WRONLY));
	int err = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : errno;

	close(fd);
	return err;
}

static long
read_signed(const char *path)
{
	char text[32];
	int fd = CHECK_OK(open(path, O_RDONLY));
	ssize_t n = read(fd, text, sizeof(text) - 1);

	close(fd);
	CHECK(n > 0);
	text[n] = '\0';
	return strtol(text, NULL, 10);
}

static void
skip_unless_small_machine(void)
{
	struct sysinfo si;

	CHECK_OK(sysinfo(&si));
	if ((unsigned long long)si.totalram * si.mem_unit > (2ull << 30))
		skip("more than 2 GiB of RAM: not exhausting this machine");
}

/* As nobody, with the floor root set at arg: down to it, not below; oom_adj not below now. */
static void
nobody_lowers_to_the_floor(const char *arg)
{
	int floor = atoi(arg);
	char text[16];

	CHECK_OK(prctl(PR_SET_DUMPABLE, 1)); /* the id change made /proc/self root's */
	CHECK_EQ(read_signed(ADJ), floor);   /* inherited */
	CHECK_EQ(write_adj(ADJ, "800"), 0);
	snprintf(text, sizeof(text), "%d", floor + 100);
	CHECK_EQ(write_adj(ADJ, text), 0);
	snprintf(text, sizeof(text), "%d", floor - 1);
	CHECK_EQ(write_adj(ADJ, text), EACCES);
	snprintf(text, sizeof(text), "%d", floor);
	CHECK_EQ(write_adj(ADJ, text), 0);
	CHECK_EQ(write_adj(LEGACY, "3"), 0);
	CHECK_EQ(read_signed(ADJ), 3 * 1000 / 17);
	CHECK_EQ(write_adj(LEGACY, "2"), EACCES); /* below the current value */
	char other[64];
	snprintf(other, sizeof(other), "/proc/%d/oom_score_adj", (int)getppid());
	CHECK_ERR(EACCES, open(other, O_WRONLY)); /* root's process */
}

/*
 * Whether this root may lower the value (CAP_SYS_RESOURCE): a container's
 * root may lack it (CapEff in /proc/self/status); rewind's root has every
 * capability and shows no such line.
 */
static bool
has_cap_sys_resource(void)
{
	char line[256];
	unsigned long long caps = ~0ull;
	FILE *f = fopen("/proc/self/status", "r");

	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps & (1ull << 24);
}

static void
check_adj_rules(void)
{
	CHECK_EQ(write_adj(ADJ, "0"), 0);
	CHECK_EQ(read_signed(ADJ), 0);
	CHECK_EQ(write_adj(ADJ, "1001"), EINVAL);
	CHECK_EQ(write_adj(ADJ, "-1001"), EINVAL);
	CHECK_EQ(write_adj(ADJ, "12x"), EINVAL);
	CHECK_EQ(write_adj(LEGACY, "16"), EINVAL);
	long plain = read_signed("/proc/self/oom_score");
	CHECK_EQ(write_adj(ADJ, "500\n"), 0);
	CHECK_EQ(read_signed(ADJ), 500);
	CHECK_EQ(read_signed(LEGACY), 500 * 17 / 1000);
	CHECK(read_signed("/proc/self/oom_score") >= plain + 300); /* 2/3 of 500 points */
	CHECK_EQ(write_adj(ADJ, "1000"), 0);
	CHECK_EQ(read_signed(LEGACY), 15);
	if (!has_cap_sys_resource()) {
		CHECK_EQ(write_adj(LEGACY, "-17"), EACCES);
		CHECK_EQ(write_adj(ADJ, "0"), 0); /* down to the floor, 0 */
		as_nobody(nobody_lowers_to_the_floor, "0");
		return;
	}
	CHECK_EQ(write_adj(LEGACY, "-17"), 0);
	CHECK_EQ(read_signed(ADJ), -1000);
	CHECK_EQ(read_signed("/proc/self/oom_score"), 0); /* never chosen */
	CHECK_EQ(write_adj(ADJ, "-500"), 0);		  /* root's write sets the floor */
	as_nobody(nobody_lowers_to_the_floor, "-500");
}

/*
 * The range -1000..1000 (EINVAL past it), oom_adj's -17..15 scale, -1000
 * reading an oom_score of 0, inheritance, and Linux's rule for lowering:
 * without CAP_SYS_RESOURCE not below the floor root's last write set
 * (oom_adj: not below the current value); another user's file is not
 * writable. A root without CAP_SYS_RESOURCE (a container) checks the
 * floor of 0 that everyone starts with.
 */
TEST(oom_score_adj_rules)
{
	if (geteuid() != 0)
		skip("not root: the floor needs root to set");
	pid_t pid = xfork();
	if (pid == 0) {
		check_adj_rules();
		_exit(0);
	}
	expect_exit(pid, 0, "the oom_score_adj checks");
}

/* Touches memory at oom_score_adj adj until the OOM killer ends it. */
static pid_t
hog_at(const char *adj)
{
	pid_t pid = xfork();

	if (pid == 0) {
		if (write_adj(ADJ, adj))
			_exit(4);
		hog_memory();
	}
	return pid;
}

/* A small child at oom_score_adj adj, set when this returns, that sleeps until killed or told to go. */
static pid_t
sleeper_at(const char *adj, int go)
{
	int ready[2];
	char c;

	CHECK_OK(pipe(ready));
	pid_t pid = xfork();
	if (pid == 0) {
		if (write_adj(ADJ, adj))
			_exit(4);
		(void)!write(ready[1], "r", 1);
		(void)!read(go, &c, 1);
		_exit(0);
	}
	close(ready[1]);
	CHECK_EQ(read(ready[0], &c, 1), 1);
	close(ready[0]);
	return pid;
}

/*
 * A volunteer at 1000 with almost no memory goes before a hog at 0; a
 * sleeper at -1000 never goes; then the hog itself.
 */
TEST(oom_score_adj_steers_the_choice)
{
	int go[2];

	skip_unless_small_machine();
	if (geteuid() != 0)
		skip("not root");
	CHECK_OK(pipe(go));
	pid_t volunteer = sleeper_at("1000", go[0]);
	pid_t spared = sleeper_at("-1000", go[0]);
	pid_t hog = hog_at("0");
	expect_signaled(wait_status(volunteer), SIGKILL, "the volunteer at 1000");
	expect_signaled(wait_status(hog), SIGKILL, "the memory hog");
	CHECK_EQ(write(go[1], "g", 1), 1);
	expect_exit(spared, 0, "the sleeper at -1000");
	close(go[0]);
	close(go[1]);
}

/* Touches one byte in each of n 2 MiB slots of a fresh area and gives the page back. */
static void
touch_sparse(size_t n)
{
	char *area = mmap(NULL, n * TWO_MIB, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (area == MAP_FAILED)
		_exit(3); /* not what should run out */
	for (size_t i = 0; i < n; i++) {
		area[i * TWO_MIB] = 1;
		madvise(area + i * TWO_MIB, 4096, MADV_DONTNEED); /* the table page stays */
	}
}

static long
vm_pte_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPTE: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* 256 slots of 2 MiB, a byte each: at least 256 table pages in VmPTE, on Linux as here. */
TEST(page_tables_show_in_vmpte)
{
	long before = vm_pte_kb();

	CHECK(before >= 0);
	touch_sparse(256);
	CHECK(vm_pte_kb() >= before + 256 * 4);
}

/*
 * A process that holds nothing resident but page tables (a byte per
 * 2 MiB, each page given back) is the victim, not a root bystander with
 * 48 MiB resident: the tables are its weight.
 */
TEST(sparse_mapper_is_the_oom_victim)
{
	int ping[2], pong[2];
	char c;

	skip_unless_small_machine();
	CHECK_OK(pipe(ping));
	CHECK_OK(pipe(pong));
	pid_t bystander = xfork();
	if (bystander == 0) {
		char *mine = map_anon(BYSTANDER_BYTES, PROT_READ | PROT_WRITE);
		memset(mine, 3, BYSTANDER_BYTES);
		if (read(ping[0], &c, 1) == 1 && all_bytes(mine, BYSTANDER_BYTES, 3))
			(void)!write(pong[1], "y", 1);
		_exit(0);
	}
	pid_t sparse = xfork();
	if (sparse == 0) {
		for (;;)
			touch_sparse(512); /* 1 GiB of address space at a time */
	}
	expect_signaled(wait_status(sparse), SIGKILL, "the sparse mapper");
	CHECK_EQ(write(ping[1], "?", 1), 1);
	CHECK(read(pong[0], &c, 1) == 1 && c == 'y');
	expect_exit(bystander, 0, "the bystander");
}
