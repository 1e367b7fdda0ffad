/*
 * eventpoll.h - epoll's flags, operations and struct epoll_event, as in
 * Linux's uapi/linux/eventpoll.h. On x86-64 the structure is packed: 12
 * bytes, data right after events.
 */
#ifndef REWIND_UAPI_EVENTPOLL_H
#define REWIND_UAPI_EVENTPOLL_H

#include "uapi/fcntl.h"

#define EPOLL_CLOEXEC O_CLOEXEC

#define EPOLL_CTL_ADD 1
#define EPOLL_CTL_DEL 2
#define EPOLL_CTL_MOD 3

/* The events are poll's (uapi/poll.h) plus these. */
#define EPOLLRDHUP     0x00002000u
#define EPOLLEXCLUSIVE (1u << 28)
#define EPOLLWAKEUP    (1u << 29)
#define EPOLLONESHOT   (1u << 30)
#define EPOLLET	       (1u << 31)

struct kernel_epoll_event {
	unsigned events;
	unsigned long long data;
} __attribute__((packed));

#endif
