/*
 * poll.h - poll(2)'s events and struct pollfd, Linux x86-64's
 * (asm-generic/poll.h). The structure is struct kernel_pollfd so that
 * it can sit next to libc's <poll.h>, whose POLL* macros user code uses.
 */
#ifndef REWIND_UAPI_POLL_H
#define REWIND_UAPI_POLL_H

#define POLLIN	   0x001
#define POLLPRI	   0x002
#define POLLOUT	   0x004
#define POLLERR	   0x008
#define POLLHUP	   0x010
#define POLLNVAL   0x020
#define POLLRDNORM 0x040
#define POLLRDBAND 0x080
#define POLLWRNORM 0x100
#define POLLWRBAND 0x200
#define POLLMSG	   0x400
#define POLLRDHUP  0x2000

struct kernel_pollfd {
	int fd;
	short events;
	short revents;
};

#endif
