/*
 * pipe_accounting.h - how much pipe buffer memory each user holds, and the
 * limits on it that Linux has in /proc/sys/fs: pipe-user-pages-soft (a
 * user above it gets small pipes), pipe-user-pages-hard (above it, no new
 * pipe and no growth) and pipe-max-size (the most F_SETPIPE_SZ gives
 * without privilege). fs/pipe.c charges every buffer here, to the user's
 * count in kernel/process/user_count.c; proc/sysctl.c shows and sets the
 * limits.
 */
#ifndef REWIND_PIPE_ACCOUNTING_H
#define REWIND_PIPE_ACCOUNTING_H

#include "kernel/process/user_count.h"

#define PIPE_DEF_PAGES	   16 /* a new pipe: 64 KiB, Linux's PIPE_DEF_BUFFERS */
#define PIPE_MIN_DEF_PAGES 2  /* one of a user above the soft limit (PIPE_MIN_DEF_BUFFERS) */

extern unsigned long pipe_max_size;	   /* bytes, a power of two of pages; 1 MiB */
extern unsigned long pipe_user_pages_soft; /* 16384 (64 MiB); 0: none */
extern unsigned long pipe_user_pages_hard; /* 0: none */

/* One pipe's charge to its creator's user. */
struct pipe_account {
	struct user_charge user;
	unsigned long pages; /* charged by this pipe */
};

/* Adds delta pages (negative: gives back) to a's user: the user's total after. */
unsigned long pipe_account_add(struct pipe_account *a, long delta);
/* Whether the limits bind the caller: neither CAP_SYS_RESOURCE nor CAP_SYS_ADMIN (Linux's pipe_is_unprivileged_user). */
bool pipe_user_unprivileged(void);
/* A total above the soft or hard limit (0 is no limit), as Linux's too_many_pipe_buffers_*. */
bool pipe_user_over_soft(unsigned long total);
bool pipe_user_over_hard(unsigned long total);
/* Linux's round_pipe_size: at least a page, a power of two; 0 if over 2^31. */
unsigned long pipe_round_size(unsigned long bytes);

#endif
