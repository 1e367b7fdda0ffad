/*
 * signaltests.h - what the files of signaltests share: helpers that set
 * dispositions, masks and the interval timer, the handlers that record
 * what they saw (and the state they record it in), and a child process
 * to run what must end a process.
 */
#ifndef SIGNALTESTS_H
#define SIGNALTESTS_H

#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <ucontext.h>

#include "lib/testing.h"

#define PAGE 4096
#define MS   1000000LL /* ns */

typedef void (*sa_handler_fn)(int, siginfo_t *, void *);

/* sigaction with SA_SIGINFO | flags and an empty sa_mask, failing the test if it fails. */
void set_handler(int sig, sa_handler_fn fn, int flags);
/* sigaction with a plain handler, SIG_IGN or SIG_DFL. */
void set_disposition(int sig, void (*fn)(int));
/* sigprocmask(how) of the one signal sig. */
void mask_signal(int how, int sig);
/* Whether sig is blocked in the calling thread. */
bool is_blocked(int sig);
/*
 * ITIMER_REAL every ms milliseconds until arm_timer_ms(0) disarms it.
 * Repeating, not one-shot: on a loaded host the first alarm may come before
 * the call a test means it to interrupt has gone to sleep, and that call
 * would then sleep for ever. So tests count handled >= 1, not == 1.
 */
void arm_timer_ms(long ms);
/* Runs fn in a child process; its wait status. */
int run_child(void (*fn)(void));
/* Waits in pause() for ever: only a signal that ends the process ends it. */
void sleep_forever(void);

/* What the last handler saw. */
extern volatile sig_atomic_t handled, handled_sig;
extern siginfo_t last_info;
extern ucontext_t last_uc;
extern volatile bool sig_was_blocked_inside;

/* Handlers: record notes all of the above, count only counts in handled. */
void record(int sig, siginfo_t *info, void *ucv);
void count(int sig, siginfo_t *info, void *uc);
/* Waits (up to 10 s) until a handler has run n times in all. */
void wait_handled(int n, const char *what);

/* A handler for faults that cannot be returned to: record, then siglongjmp to recover. */
extern sigjmp_buf recover;
void record_and_jump(int sig, siginfo_t *info, void *uc);

#endif
