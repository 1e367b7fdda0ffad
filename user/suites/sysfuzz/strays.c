/*
 * strays.c - sysfuzz: the processes the workers leave behind. A worker's
 * fork child, or a worker the parent lost track of, can outlive the worker
 * (asleep in a call, or reparented while it runs): the worker's SIGKILL
 * never reaches it, and after the storm it holds its memory, files and
 * task - to a leak check around the run, a whole process leaked.
 *
 * So the parent is a child subreaper (PR_SET_CHILD_SUBREAPER): every
 * orphan below it comes to it rather than to init. After the storm it
 * kills each child still alive (found by its PPid in /proc, as the parent
 * knows no pids but the workers') and reaps until it has no child left:
 * a killed stray's own children come to it in turn. Then, when the
 * workers were another user's (nobody), no process of that user may be
 * left at all: one would have escaped the subreaper, and the run fails.
 */
#define _GNU_SOURCE
#include "sysfuzz.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/procfile.h"

bool
adopt_strays(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
}

struct status_visit {
	void (*fn)(long pid, const char *status, void *arg);
	void *arg;
};

static void
visit_with_status(long pid, void *arg)
{
	static char status[4096];
	char path[64];
	struct status_visit *v = arg;

	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	if (read_text_file(path, status, sizeof(status)) >= 0)
		v->fn(pid, status, v->arg);
}

/* Calls fn(pid, its status text) for every process in /proc but init and this one. */
static void
for_each_process(void (*fn)(long pid, const char *status, void *arg), void *arg)
{
	struct status_visit v = { fn, arg };

	for_each_pid("/proc", visit_with_status, &v);
}

static void
kill_if_child(long pid, const char *status, void *arg __attribute__((unused)))
{
	unsigned long long ppid;

	if (field_ull(status, "PPid", &ppid) == 0 && ppid == (unsigned long long)getpid())
		kill(pid, SIGKILL);
}

int
end_strays(int give_up_s)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	int reaped = 0;
	pid_t pid;

	for (long tries = 0; tries < give_up_s * 50L; tries++) {
		for_each_process(kill_if_child, NULL);
		while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
			reaped++;
		if (pid < 0 && errno == ECHILD)
			return reaped;
		nanosleep(&pause, NULL);
	}
	return -1;
}

struct uid_search {
	unsigned long long uid;
	char found[160]; /* the first such process, described */
};

static void
note_if_users(long pid, const char *status, void *arg)
{
	struct uid_search *s = arg;
	unsigned long long uid, ppid;
	char state[32] = "?", name[32] = "?";

	if (s->found[0] || field_ull(status, "Uid", &uid) != 0 || uid != s->uid)
		return;
	field_ull(status, "PPid", &ppid);
	field_str(status, "State", state, sizeof(state));
	field_str(status, "Name", name, sizeof(name));
	snprintf(s->found, sizeof(s->found), "pid %ld ppid %llu state %c name %.16s", pid, ppid,
		 state[0], name);
}

bool
find_users_process(unsigned uid, char *found, size_t size)
{
	struct uid_search s = { .uid = uid };

	for_each_process(note_if_users, &s);
	snprintf(found, size, "%s", s.found);
	return s.found[0] != '\0';
}
