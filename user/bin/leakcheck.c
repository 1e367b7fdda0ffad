/*
 * leakcheck.c - runs programs, then checks that the kernel holds no more
 * than it held before them: pages, kmalloc objects, tasks, address spaces,
 * VMAs, open files, inodes and dentries, as rewind's /proc/objects counts
 * them (kernel/objcount.h) - and that kmemdebug reported nothing meanwhile
 * (its count is the last line there).
 *
 *	leakcheck [-r N] [-p DIR] COMMAND...	(each "PROGRAM ARG ..." from /bin,
 *					one after the other; with -r, all of them N
 *					times over)
 *
 * -p DIR reads the counts through a proc instance of its own, mounted on
 * DIR for the run: a fuzzer with root's rights (trinity's children before
 * they drop them) may unmount /proc, and the second reading would find
 * nothing. The instance is there for both readings, so its few objects
 * are no leak.
 *
 * Whatever the programs made and gave back must be gone once they have
 * exited: a count above its first reading is a leak, named by kind. Some
 * freeing happens just after the exit (a zombie reaped, its stack freed
 * once its CPU has left it), so the counts are read again until they are
 * back, for up to 30 s, before a leak is declared; leakcheck itself makes
 * nothing in between (no stdio until the verdict: a stream's buffer would
 * be a VMA of its own), so the two readings are of the same world. Output:
 * the counts that moved, "ok" or "FAIL" per kind, and the verdict line
 * "leakcheck: N passed, N failed". Exit status: the last program's, or 1
 * on a leak.
 *
 * Under kmemdebug, a kmalloc leak is also named by where the objects were
 * made: /proc/kmemdebug_sites, read before the programs and after them,
 * counts the live objects by the kernel function that allocated them, and
 * each site that grew gets a line "leakcheck: kmalloc site SITE: N before,
 * N after" (the leaked inode shows as inode_alloc, and beside it whatever
 * else was made with it, or holds it). A leak of pages is named the same
 * way, with or without kmemdebug, from /proc/page_sites (the pages outside
 * kmalloc by the function that asked for them): "leakcheck: pages site
 * SITE: N before, N after". The sites that shrank are listed after those
 * that grew: a copy on write moves a page from one site to another.
 *
 * On a leak, every process still alive but leakcheck and init is listed
 * before the verdict ("leakcheck: alive: pid ..."): its parent, process
 * group, session, state, tracer, uid, name and the system call it is in
 * (/proc/PID/syscall's first field; -1: not in one), so that a process
 * the programs left behind names itself rather than showing only as its
 * objects in the counts.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/procfile.h"

#define MAX_KINDS 16

struct reading {
	int n;
	char names[MAX_KINDS][16];
	unsigned long counts[MAX_KINDS];
};

static char proc_dir[256] = "/proc";
static char objects_path[256] = "/proc/objects";

/* A /proc file of live counts by allocation site, read before the programs and after them. */
struct sites {
	const char *kind; /* the /proc/objects line whose leak it names */
	const char *file;
	char path[320]; /* proc_dir and the name */
	char before[64 * 1024], after[64 * 1024];
};

static struct sites site_files[] = {
	{ .kind = "kmalloc", .file = "kmemdebug_sites" },
	{ .kind = "pages", .file = "page_sites" },
};

/* With read(2) into static memory: a stdio stream would allocate, and grow this process between readings. */
static int
read_objects(struct reading *r)
{
	static char text[1024];
	int fd = open(objects_path, O_RDONLY), used;
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);
	const char *p = text;

	if (fd >= 0)
		close(fd);
	r->n = 0;
	if (n <= 0)
		return -1;
	text[n] = '\0';
	while (r->n < MAX_KINDS &&
	       sscanf(p, "%15s %lu\n%n", r->names[r->n], &r->counts[r->n], &used) == 2) {
		r->n++;
		p += used;
	}
	return r->n > 0 ? 0 : -1;
}

/* All of a /proc file into buf, NUL-terminated (empty when it cannot be read). */
static void
read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t n;

	while (fd >= 0 && len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	if (fd >= 0)
		close(fd);
	buf[len] = '\0';
}

/*
 * The sites of text whose count in other is lower (after: text is the
 * second reading), one line each with both counts.
 */
static void
name_lower_in(const char *kind, const char *text, const char *other, bool after)
{
	char site[128];
	unsigned long count;
	int used;

	for (const char *p = text; sscanf(p, "%127s %lu\n%n", site, &count, &used) == 2;
	     p += used) {
		unsigned long other_count = site_count(other, site);
		if (other_count < count)
			printf("leakcheck: %s site %s: %lu before, %lu after\n", kind, site,
			       after ? other_count : count, after ? count : other_count);
	}
}

/*
 * The sites whose live count grew, then those that shrank: a page of the
 * programs' replaced by one of another site (a copy on write) shows as
 * one of each, so the site of what was left is the one the others do not
 * balance.
 */
static void
name_sites(struct sites *s)
{
	read_text(s->path, s->after, sizeof(s->after));
	name_lower_in(s->kind, s->after, s->before, true);
	name_lower_in(s->kind, s->before, s->after, false);
}

/* Runs "PROGRAM ARG ..." (words split at spaces) from /bin; returns its status. */
static int
run(const char *command)
{
	static char words[4096]; /* a copy to split: the command may run again */
	char path[256], *argv[32];
	int argc = 0, status;
	pid_t pid;

	snprintf(words, sizeof(words), "%s", command);
	for (char *w = strtok(words, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	if (!argc)
		return 0;
	snprintf(path, sizeof(path), "/bin/%s", argv[0]);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(path, argv);
		perror(path);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int
kinds_above(const struct reading *before, const struct reading *after)
{
	int n = 0;

	for (int i = 0; i < before->n && i < after->n; i++)
		n += after->counts[i] > before->counts[i];
	return n;
}

/* Reads until nothing is above the baseline, or the time is up. */
static void
settle(const struct reading *before, struct reading *after)
{
	for (int tries = 0; tries < 300; tries++) {
		if (read_objects(after) == 0 && kinds_above(before, after) == 0)
			return;
		nanosleep(&(struct timespec){ 0, 100 * 1000 * 1000 }, NULL);
	}
}

/*
 * Touches the stack this process will use and takes a first reading: the
 * pages of the buffers and the stack fault in now, not between the two
 * readings that count (a reading's buffer is faulted in only after the
 * kernel has taken the counts it holds).
 */
static __attribute__((noinline)) void
fault_in_own_memory(void)
{
	volatile char stack[32 * 1024];
	struct reading scratch;

	for (size_t i = 0; i < sizeof(stack); i += 4096)
		stack[i] = 0;
	read_objects(&scratch);
}

/* One line for process pid from its stat, status and syscall files; nothing if it is gone. */
static void
show_process(long pid, void *arg __attribute__((unused)))
{
	char path[320], stat[1024], status[4096], syscall_text[256] = "?", name[64] = "?";
	char tracer[16] = "?", uid[64] = "?", state;
	long ppid, pgid, sid;
	const char *after_name;

	snprintf(path, sizeof(path), "%s/%ld/stat", proc_dir, pid);
	if (read_text_file(path, stat, sizeof(stat)) < 0)
		return;
	/* "PID (NAME) STATE PPID PGID SID ...": the name may hold spaces and parentheses. */
	after_name = strrchr(stat, ')');
	if (!after_name ||
	    sscanf(after_name + 1, " %c %ld %ld %ld", &state, &ppid, &pgid, &sid) != 4)
		return;
	snprintf(path, sizeof(path), "%s/%ld/status", proc_dir, pid);
	if (read_text_file(path, status, sizeof(status)) >= 0) {
		field_str(status, "Name", name, sizeof(name));
		field_str(status, "TracerPid", tracer, sizeof(tracer));
		field_str(status, "Uid", uid, sizeof(uid));
		uid[strcspn(uid, "\t ")] = '\0'; /* the real one of the four */
	}
	snprintf(path, sizeof(path), "%s/%ld/syscall", proc_dir, pid);
	if (read_text_file(path, syscall_text, sizeof(syscall_text)) >= 0)
		syscall_text[strcspn(syscall_text, " \n")] = '\0';
	printf("leakcheck: alive: pid %ld ppid %ld pgid %ld sid %ld state %c tracer %s uid %s "
	       "syscall %s name %s\n",
	       pid, ppid, pgid, sid, state, tracer, uid, syscall_text, name);
}

/* Every process but init and leakcheck: what is left of the programs' is among them. */
static void
show_processes(void)
{
	for_each_pid(proc_dir, show_process, NULL);
}

int
main(int argc, char **argv)
{
	struct reading before, after;
	int status = 0, passed = 0, failed = 0, rounds = 1, first = 1;
	const char *own_proc = NULL;

	for (; first + 1 < argc && argv[first][0] == '-'; first += 2) {
		if (!strcmp(argv[first], "-r"))
			rounds = atoi(argv[first + 1]);
		else if (!strcmp(argv[first], "-p"))
			own_proc = argv[first + 1];
		else
			break;
	}
	if (argc <= first || rounds < 1 || argv[first][0] == '-') {
		fprintf(stderr, "usage: leakcheck [-r ROUNDS] [-p DIR] \"PROGRAM [ARG...]\"...\n");
		return 2;
	}
	if (own_proc) {
		mkdir(own_proc, 0700);
		if (mount("proc", own_proc, "proc", 0, NULL) != 0) {
			perror("leakcheck: mount proc");
			return 2;
		}
		snprintf(proc_dir, sizeof(proc_dir), "%s", own_proc);
		snprintf(objects_path, sizeof(objects_path), "%s/objects", own_proc);
	}
	/*
	 * Each buffer read once to fault its pages in, and the sites read just
	 * before the counts: a page of leakcheck's own faulted in between would
	 * show as a site grown.
	 */
	for (size_t k = 0; k < sizeof(site_files) / sizeof(site_files[0]); k++) {
		struct sites *s = &site_files[k];
		snprintf(s->path, sizeof(s->path), "%s/%s", proc_dir, s->file);
		read_text(s->path, s->after, sizeof(s->after));
		read_text(s->path, s->before, sizeof(s->before));
	}
	fault_in_own_memory();
	for (size_t k = 0; k < sizeof(site_files) / sizeof(site_files[0]); k++)
		read_text(site_files[k].path, site_files[k].before, sizeof(site_files[k].before));
	if (read_objects(&before) != 0) {
		printf("leakcheck: no /proc/objects (it needs rewind)\nleakcheck: 0 passed, 1 failed\n");
		return 1;
	}
	for (int r = 0; r < rounds; r++)
		for (int i = first; i < argc; i++)
			status = run(argv[i]);
	settle(&before, &after);
	for (int i = 0; i < before.n && i < after.n; i++) {
		bool leaked = after.counts[i] > before.counts[i];
		printf("%s leak_%s: %lu before, %lu after\n", leaked ? "FAIL" : "ok",
		       before.names[i], before.counts[i], after.counts[i]);
		leaked ? failed++ : passed++;
		for (size_t k = 0; leaked && k < sizeof(site_files) / sizeof(site_files[0]); k++)
			if (!strcmp(before.names[i], site_files[k].kind) && site_files[k].before[0])
				name_sites(&site_files[k]);
	}
	if (failed)
		show_processes();
	printf("leakcheck: %d passed, %d failed\n", passed, failed);
	if (own_proc)
		umount2(own_proc, MNT_DETACH);
	return failed ? 1 : status;
}
