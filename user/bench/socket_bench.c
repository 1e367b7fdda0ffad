/*
 * socket_bench.c - socket costs, as lmbench's lat_unix, lat_tcp, lat_udp
 * and bw_tcp measure them: a one-byte ping-pong between two processes over
 * an AF_UNIX stream pair, a loopback TCP connection and a pair of loopback
 * UDP sockets (round trip, us), and TCP's bandwidth on the loopback (64 KiB
 * writes that a child reads, MB/s).
 *
 * On Linux it brings `lo` up first: the --linux guest leaves it down.
 */
#include "lib/bench.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHUNK (64 * 1024)

static void
die(const char *what)
{
	perror(what);
	exit(1);
}

/* Linux's lo as an administrator would bring it up (rewind's loopback is always up: ENOTTY). */
static void
loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (fd >= 0 && ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	if (fd >= 0)
		close(fd);
}

/* A connected pair of sockets of type on the loopback (UDP: each connected to the other). */
static void
loopback_pair(int type, int fd[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, type, 0);

	if (l < 0 || bind(l, (struct sockaddr *)&a, len) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		die("socket_bench: bind");
	if (type == SOCK_STREAM && listen(l, 1))
		die("socket_bench: listen");
	fd[0] = socket(AF_INET, type, 0);
	if (fd[0] < 0 || connect(fd[0], (struct sockaddr *)&a, len))
		die("socket_bench: connect");
	if (type == SOCK_STREAM) {
		fd[1] = accept(l, NULL, NULL);
		close(l);
	} else {
		fd[1] = l;
		struct sockaddr_in b;
		socklen_t blen = sizeof(b);
		if (getsockname(fd[0], (struct sockaddr *)&b, &blen) ||
		    connect(fd[1], (struct sockaddr *)&b, blen))
			die("socket_bench: connect back");
	}
	if (fd[1] < 0)
		die("socket_bench: accept");
}

static void
round_trip(void *arg)
{
	int fd = *(int *)arg;
	char c = 'x';

	if (write(fd, &c, 1) != 1 || read(fd, &c, 1) != 1)
		die("socket_bench: round trip");
}

/* The round trip over fd[0], a child echoing on fd[1]. */
static void
measure_rtt(const char *metric, int fd[2])
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		close(fd[0]);
		while (read(fd[1], &c, 1) == 1 && write(fd[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(fd[1]);
	bench_report(metric, bench_measure(round_trip, &fd[0]), "us");
	shutdown(fd[0], SHUT_RDWR); /* ends the child's read, a UDP socket's too */
	close(fd[0]);
	if (pid > 0)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void
write_chunk(void *arg)
{
	static char buf[CHUNK];
	int fd = *(int *)arg;

	for (size_t done = 0; done < CHUNK;) {
		ssize_t n = write(fd, buf + done, CHUNK - done);
		if (n <= 0)
			die("socket_bench: write");
		done += (size_t)n;
	}
}

/* TCP's bandwidth: 64 KiB writes on fd[0] that a child reads on fd[1], MB/s. */
static void
measure_bandwidth(int fd[2])
{
	pid_t pid = fork();

	if (pid == 0) {
		static char buf[CHUNK];
		close(fd[0]);
		while (read(fd[1], buf, sizeof(buf)) > 0)
			;
		_exit(0);
	}
	close(fd[1]);
	struct bench_stat s = bench_measure(write_chunk, &fd[0]);
	close(fd[0]);
	waitpid(pid, NULL, 0);
	bench_result("tcp_bw", CHUNK / s.mean_ns * 1e9 / 1e6, "MB/s");
}

static const struct bench_help help = {
	.name = "socket",
	.about = "One-byte round trips between two processes over an AF_UNIX stream pair, a\n"
		 "loopback TCP connection and loopback UDP sockets (us), and TCP's loopback\n"
		 "bandwidth in 64 KiB writes (MB/s): lmbench's lat_unix, lat_tcp, lat_udp, bw_tcp.",
	.synopsis = "",
	.options = "",
};

int
main(int argc, char **argv)
{
	int fd[2];

	bench_init(argc, argv, &help);
	loopback_up();
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd))
		die("socket_bench: socketpair");
	measure_rtt("unix_rtt", fd);
	loopback_pair(SOCK_STREAM, fd);
	measure_rtt("tcp_rtt", fd);
	loopback_pair(SOCK_DGRAM, fd);
	measure_rtt("udp_rtt", fd);
	loopback_pair(SOCK_STREAM, fd);
	measure_bandwidth(fd);
	return 0;
}
