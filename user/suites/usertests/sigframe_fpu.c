/*
 * sigframe_fpu.c - usertests: the FPU image of a signal frame, which the
 * kernel writes with one XSAVE (FXSAVE) straight into user memory and
 * rt_sigreturn loads with one XRSTOR (FXRSTOR) from it, as Linux does: the
 * frame on a page not yet faulted in, and an image the CPU refuses to load.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#include <xmmintrin.h>

#define MXCSR_DEFAULT	 0x1f80
#define MXCSR_ROUND_DOWN 0x2000

static volatile unsigned frame_mxcsr;

static void
record_frame_mxcsr(int sig, siginfo_t *info, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig, (void)info;
	frame_mxcsr = uc->uc_mcontext.fpregs ? uc->uc_mcontext.fpregs->mxcsr : 0;
}

/*
 * An alternate stack whose pages were never touched: the image is stored
 * into a page the store itself faults in, and comes back at sigreturn.
 */
TEST(signal_frame_fpu_image_on_untouched_altstack_pages)
{
	size_t size = 64 * 1024;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack_t ss = { .ss_sp = p, .ss_size = size }, old;
	struct sigaction sa = { .sa_sigaction = record_frame_mxcsr,
				.sa_flags = SA_SIGINFO | SA_ONSTACK },
			 old_sa;

	CHECK(p != MAP_FAILED);
	CHECK_OK(sigaltstack(&ss, &old));
	CHECK_OK(sigaction(SIGUSR1, &sa, &old_sa));
	_mm_setcsr(MXCSR_DEFAULT | MXCSR_ROUND_DOWN);
	raise(SIGUSR1);
	unsigned after = _mm_getcsr();
	_mm_setcsr(MXCSR_DEFAULT);
	CHECK_OK(sigaction(SIGUSR1, &old_sa, NULL));
	CHECK_OK(sigaltstack(&old, NULL));
	CHECK_EQ(frame_mxcsr, (unsigned)(MXCSR_DEFAULT | MXCSR_ROUND_DOWN));
	CHECK_EQ(after, (unsigned)(MXCSR_DEFAULT | MXCSR_ROUND_DOWN));
	munmap(p, size);
}

static void
set_reserved_mxcsr_bits(int sig, siginfo_t *info, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig, (void)info;
	uc->uc_mcontext.fpregs->mxcsr = 0xffffffff;
}

/*
 * XRSTOR refuses an MXCSR with reserved bits set (#GP): the sigreturn
 * fails and the process gets SIGSEGV, as on Linux, whose restore from the
 * frame faults the same way.
 */
TEST(sigreturn_of_reserved_mxcsr_bits_is_sigsegv)
{
	pid_t pid = fork();

	CHECK(pid >= 0);
	if (pid == 0) {
		struct sigaction sa = { .sa_sigaction = set_reserved_mxcsr_bits,
					.sa_flags = SA_SIGINFO };
		sigaction(SIGUSR1, &sa, NULL);
		raise(SIGUSR1);
		_exit(0);
	}
	int status;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status));
	CHECK_EQ(WTERMSIG(status), SIGSEGV);
}
