/*
 * proc_bench.c - process and scheduling costs: fork + exit + wait of a
 * child that does nothing, and a one-byte ping-pong between two processes
 * over a pair of pipes (round-trip time, two context switches each way).
 */
#include "lib/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void
fork_exit_wait(void *arg)
{
	(void)arg;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0 || waitpid(pid, NULL, 0) != pid) {
		perror("proc_bench: fork/wait");
		exit(1);
	}
}

struct pingpong {
	int to_child[2], to_parent[2];
};

static void
round_trip(void *arg)
{
	struct pingpong *pp = arg;
	char c = 'x';

	if (write(pp->to_child[1], &c, 1) != 1 || read(pp->to_parent[0], &c, 1) != 1) {
		perror("proc_bench: pipe");
		exit(1);
	}
}

static void
echo_child(struct pingpong *pp)
{
	char c;

	while (read(pp->to_child[0], &c, 1) == 1)
		if (write(pp->to_parent[1], &c, 1) != 1)
			break;
	_exit(0);
}

static const struct bench_help help = {
	.name = "proc",
	.about = "fork + exit + wait of a child that does nothing, and a one-byte ping-pong\n"
		 "between two processes over two pipes (round trip), in us.",
	.synopsis = "",
	.options = "",
};

int
main(int argc, char **argv)
{
	struct pingpong pp;

	bench_init(argc, argv, &help);
	bench_report("fork_exit_wait", bench_measure(fork_exit_wait, 0), "us");

	if (pipe(pp.to_child) || pipe(pp.to_parent)) {
		perror("proc_bench: pipe");
		return 1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(pp.to_child[1]);
		close(pp.to_parent[0]);
		echo_child(&pp);
	}
	close(pp.to_child[0]);
	close(pp.to_parent[1]);
	bench_report("pipe_rtt", bench_measure(round_trip, &pp), "us");
	close(pp.to_child[1]);
	waitpid(pid, NULL, 0);
	return 0;
}
