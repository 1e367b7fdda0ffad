/*
 * mqueue.h - POSIX message queues' ABI (linux/mqueue.h): the attributes
 * mq_open and mq_getsetattr exchange, and the highest priority plus one.
 */
#ifndef UAPI_MQUEUE_H
#define UAPI_MQUEUE_H

#define MQ_PRIO_MAX 32768 /* priorities are 0 .. MQ_PRIO_MAX - 1 */

/* struct mq_attr: 64 bytes, the last four longs reserved. */
struct kernel_mq_attr {
	long mq_flags;	 /* O_NONBLOCK of the descriptor, or 0 */
	long mq_maxmsg;	 /* the most messages queued at once */
	long mq_msgsize; /* the largest message, in bytes */
	long mq_curmsgs; /* messages queued now */
	long reserved[4];
};

#endif
