/*
 * futex.h - futex(2) operations and flags, Linux's values
 * (linux/futex.h). Neither musl nor glibc's <sys/...> headers define
 * them, so user programs that call futex(2) include this header.
 */
#ifndef REWIND_UAPI_FUTEX_H
#define REWIND_UAPI_FUTEX_H

#define FUTEX_WAIT	  0
#define FUTEX_WAKE	  1
#define FUTEX_REQUEUE	  3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10

#define FUTEX_PRIVATE_FLAG   128
#define FUTEX_CLOCK_REALTIME 256

#define FUTEX_WAIT_PRIVATE	  (FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_PRIVATE	  (FUTEX_WAKE | FUTEX_PRIVATE_FLAG)
#define FUTEX_REQUEUE_PRIVATE	  (FUTEX_REQUEUE | FUTEX_PRIVATE_FLAG)
#define FUTEX_CMP_REQUEUE_PRIVATE (FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAIT_BITSET_PRIVATE (FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_BITSET_PRIVATE (FUTEX_WAKE_BITSET | FUTEX_PRIVATE_FLAG)

/* The bitset that matches every waiter (what plain FUTEX_WAIT and FUTEX_WAKE use). */
#define FUTEX_BITSET_MATCH_ANY 0xffffffffu

/* futex_waitv(2): up to FUTEX_WAITV_MAX words, each a 32-bit one (FUTEX_32), maybe private. */
#define FUTEX_32	2
#define FUTEX_WAITV_MAX 128

/* One word futex_waitv waits on while it holds val (linux/futex.h's struct futex_waitv). */
struct kernel_futex_waitv {
	unsigned long long val;
	unsigned long long uaddr;
	unsigned int flags; /* FUTEX_32, and FUTEX_PRIVATE_FLAG */
	unsigned int reserved;
};

/* A robust mutex's word: the owner's tid and two flags (Linux's futex.h). */
#define FUTEX_WAITERS	 0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK	 0x3fffffffu

/*
 * set_robust_list's list: the mutexes a thread holds, each entry futex_offset
 * bytes before its word (bit 0 of a pointer: a PI futex), and the one it is
 * taking or releasing (list_op_pending). The kernel walks it when the thread
 * exits or execs.
 */
struct robust_list {
	struct robust_list *next;
};

struct robust_list_head {
	struct robust_list list;
	long futex_offset;
	struct robust_list *list_op_pending;
};

#endif
