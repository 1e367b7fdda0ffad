/*
 * ptrace.c - usertests: one process tracing another (ptrace(2)) as
 * strace and gdb use it: becoming a tracer (TRACEME, ATTACH, SEIZE), the
 * stops and their wait statuses (exec's SIGTRAP, signal-delivery,
 * syscall-enter and -exit with TRACESYSGOOD, PTRACE_EVENT_*), what a
 * tracer reads and writes in a stopped tracee (registers, memory, the
 * signal to deliver, a system call's number and result), and who may
 * trace whom. Reading another process's memory with process_vm_readv too.
 * Group stops and SIGCONT under a tracer are ptrace_stops.c's.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "tracer.h"

#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/procfile.h"

long
trace(int request, pid_t pid, unsigned long addr, unsigned long data)
{
	return syscall(SYS_ptrace, request, pid, addr, data);
}

int
wait_traced(pid_t pid)
{
	int status;

	CHECK_EQ(CHECK_OK(waitpid(pid, &status, __WALL)), pid);
	return status;
}

void
expect_stop(pid_t pid, int what)
{
	int status = wait_traced(pid);

	if (status != STOPPED_WITH(what))
		fail("pid %d: wait status %#x, want %#x", pid, status, STOPPED_WITH(what));
}

pid_t
traced_child(void (*body)(void))
{
	pid_t pid = xfork();

	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
			_exit(90);
		raise(SIGSTOP);
		body();
		_exit(0);
	}
	expect_stop(pid, SIGSTOP);
	return pid;
}

void
sleep_forever(void)
{
	for (;;)
		pause();
}

void
kill_and_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, __WALL) != pid && errno == EINTR)
		;
}

static long
tracer_pid_of(pid_t pid)
{
	char path[64], text[4096];
	unsigned long long value;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	CHECK_OK(field_ull(text, "TracerPid", &value));
	return (long)value;
}

TEST(ptrace_traceme_exec_stops_with_sigtrap)
{
	pid_t pid = xfork();

	if (pid == 0) {
		CHECK_OK(ptrace(PTRACE_TRACEME, 0, 0, 0));
		execl(self_path, self_path, "--helper", "exit", "5", (char *)NULL);
		_exit(99);
	}
	expect_stop(pid, SIGTRAP);
	CHECK_EQ(tracer_pid_of(pid), getpid());
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 5, "the traced program");
}

TEST(ptrace_traceme_twice_is_eperm)
{
	pid_t pid = xfork();

	if (pid == 0) {
		CHECK_OK(ptrace(PTRACE_TRACEME, 0, 0, 0));
		CHECK_ERR(EPERM, ptrace(PTRACE_TRACEME, 0, 0, 0));
		_exit(0);
	}
	expect_exited(wait_traced(pid), 0, "the child");
}

TEST(ptrace_attach_stops_and_detach_lets_go)
{
	pid_t pid = xfork();

	if (pid == 0)
		sleep_forever();
	CHECK_OK(trace(PTRACE_ATTACH, pid, 0, 0));
	expect_stop(pid, SIGSTOP);
	CHECK_EQ(tracer_pid_of(pid), getpid());
	CHECK_ERR(EPERM, trace(PTRACE_ATTACH, pid, 0, 0));
	CHECK_OK(trace(PTRACE_DETACH, pid, 0, 0));
	CHECK_EQ(tracer_pid_of(pid), 0);
	CHECK_ERR(ESRCH, trace(PTRACE_CONT, pid, 0, 0));
	kill_and_reap(pid);
}

TEST(ptrace_requests_of_a_non_tracee_are_esrch)
{
	pid_t pid = xfork();
	struct user_regs_struct regs;

	if (pid == 0)
		sleep_forever();
	CHECK_ERR(ESRCH, trace(PTRACE_CONT, pid, 0, 0));
	CHECK_ERR(ESRCH, trace(PTRACE_GETREGS, pid, 0, (unsigned long)&regs));
	CHECK_ERR(ESRCH, trace(PTRACE_INTERRUPT, pid, 0, 0));
	CHECK_ERR(ESRCH, trace(PTRACE_KILL, pid, 0, 0));
	kill_and_reap(pid);
}

static void
attach_refused(const char *pid)
{
	CHECK_ERR(EPERM, trace(PTRACE_ATTACH, atoi(pid), 0, 0));
	CHECK_ERR(EPERM, trace(PTRACE_SEIZE, atoi(pid), 0, 0));
}

TEST(ptrace_another_users_process_is_eperm)
{
	char arg[16];
	pid_t pid;

	if (getuid() != 0)
		skip("needs root to become nobody");
	pid = xfork();
	if (pid == 0)
		sleep_forever();
	snprintf(arg, sizeof(arg), "%d", pid);
	as_nobody(attach_refused, arg);
	kill_and_reap(pid);
}

/* ---- system-call stops ------------------------------------------------------------------ */

/* Runs the tracee to its next syscall stop with TRACESYSGOOD; its registers. */
static void
next_syscall_stop(pid_t pid, struct user_regs_struct *regs)
{
	CHECK_OK(trace(PTRACE_SYSCALL, pid, 0, 0));
	expect_stop(pid, SIGTRAP | 0x80);
	CHECK_OK(trace(PTRACE_GETREGS, pid, 0, (unsigned long)regs));
}

/* Runs the tracee to the entry of its next call number nr (the calls before run untouched). */
static void
run_to_entry(pid_t pid, long nr, struct user_regs_struct *regs)
{
	CHECK_OK(trace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD));
	for (;;) {
		next_syscall_stop(pid, regs); /* an entry */
		if ((long)regs->orig_rax == nr)
			return;
		next_syscall_stop(pid, regs); /* its exit */
	}
}

static void
call_getppid_and_exit(void)
{
	_exit(syscall(SYS_getppid) == getppid() ? 0 : 1);
}

TEST(ptrace_syscall_stops_show_number_and_result)
{
	pid_t pid = traced_child(call_getppid_and_exit);
	struct user_regs_struct regs;
	struct __ptrace_syscall_info info;

	run_to_entry(pid, SYS_getppid, &regs);
	CHECK_EQ((long)regs.rax, -ENOSYS);
	long size =
		CHECK_OK(trace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), (unsigned long)&info));
	CHECK_EQ(size, offsetof(struct __ptrace_syscall_info, entry.args) + 6 * 8);
	CHECK(info.op == PTRACE_SYSCALL_INFO_ENTRY && info.entry.nr == SYS_getppid);
	CHECK(info.instruction_pointer == regs.rip && info.stack_pointer == regs.rsp);
	next_syscall_stop(pid, &regs);
	CHECK((long)regs.orig_rax == SYS_getppid && (pid_t)regs.rax == getpid());
	CHECK_OK(trace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), (unsigned long)&info));
	CHECK(info.op == PTRACE_SYSCALL_INFO_EXIT && info.exit.rval == getpid() &&
	      !info.exit.is_error);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 0, "the tracee");
}

static void
expect_getppid_4242(void)
{
	_exit(syscall(SYS_getppid) == 4242 ? 0 : 1);
}

TEST(ptrace_tracer_changes_a_syscall_result)
{
	pid_t pid = traced_child(expect_getppid_4242);
	struct user_regs_struct regs;

	run_to_entry(pid, SYS_getppid, &regs);
	next_syscall_stop(pid, &regs);
	regs.rax = 4242;
	CHECK_OK(trace(PTRACE_SETREGS, pid, 0, (unsigned long)&regs));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 0, "the tracee, seeing 4242");
}

static void
expect_kill_skipped(void)
{
	/* Skipped by the tracer, kill never runs: -ENOSYS, and the process lives. */
	long ret = syscall(SYS_kill, getpid(), SIGKILL);
	_exit(ret == -1 && errno == ENOSYS ? 0 : 1);
}

TEST(ptrace_orig_rax_minus_one_skips_the_call)
{
	pid_t pid = traced_child(expect_kill_skipped);
	struct user_regs_struct regs;

	run_to_entry(pid, SYS_kill, &regs);
	regs.orig_rax = -1;
	CHECK_OK(trace(PTRACE_SETREGS, pid, 0, (unsigned long)&regs));
	next_syscall_stop(pid, &regs);
	CHECK_EQ((long)regs.rax, -ENOSYS);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 0, "the tracee");
}

/* ---- registers and memory --------------------------------------------------------------- */

TEST(ptrace_getregs_peekuser_and_regsets_agree)
{
	pid_t pid = traced_child(sleep_forever);
	struct user_regs_struct regs, again;
	struct user_fpregs_struct fp;
	struct iovec iov = { &again, sizeof(again) + 64 };

	CHECK_OK(trace(PTRACE_GETREGS, pid, 0, (unsigned long)&regs));
	errno = 0;
	long rip = ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user_regs_struct, rip), 0);
	CHECK(errno == 0 && (unsigned long)rip == regs.rip);
	CHECK_ERR(EIO, trace(PTRACE_PEEKUSER, pid, 3, 0));
	CHECK_OK(trace(PTRACE_GETREGSET, pid, 1 /* NT_PRSTATUS */, (unsigned long)&iov));
	CHECK(iov.iov_len == sizeof(again) && memcmp(&regs, &again, sizeof(regs)) == 0);
	CHECK_OK(trace(PTRACE_SETREGS, pid, 0, (unsigned long)&regs));
	CHECK_OK(trace(PTRACE_GETFPREGS, pid, 0, (unsigned long)&fp));
	CHECK_OK(trace(PTRACE_SETFPREGS, pid, 0, (unsigned long)&fp));
	CHECK_OK(trace(PTRACE_POKEUSER, pid, offsetof(struct user_regs_struct, r12), 0x1234));
	CHECK_OK(trace(PTRACE_GETREGS, pid, 0, (unsigned long)&again));
	CHECK(again.r12 == 0x1234 && again.rip == regs.rip);
	kill_and_reap(pid);
}

static volatile long data_word = 0x1122334455667788;
static const long rodata_word = 0x0102030405060708;

static void
expect_poked_words(void)
{
	raise(SIGSTOP); /* the tracer pokes here */
	_exit(data_word == 0x7777 && *(volatile const long *)&rodata_word == 0x8888 ? 0 : 1);
}

/* ---- the XSAVE image (NT_X86_XSTATE) ------------------------------------------------------ */

#define NOTE_X86_XSTATE 0x202
#define XSAVE_SW_BYTES	464 /* the first word: XCR0, for debuggers */
#define XSAVE_XFEATURES 512 /* the header: the components the image holds */
#define XSAVE_XCOMP_BV	520
#define XSAVE_XMM0	160
#define XSAVE_MXCSR	24

static uint64_t
xsave_word(const unsigned char *image, size_t off)
{
	uint64_t v;

	memcpy(&v, image + off, sizeof(v));
	return v;
}

static void
set_xsave_word(unsigned char *image, size_t off, uint64_t v)
{
	memcpy(image + off, &v, sizeof(v));
}

static uint64_t
xcr0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static long
xstate_request(int request, pid_t pid, void *image, size_t len)
{
	struct iovec iov = { image, len };

	return trace(request, pid, NOTE_X86_XSTATE, (unsigned long)&iov);
}

/* SETREGSET of image with the word at off replaced by v fails with err. */
static void
expect_xstate_refused(pid_t pid, const unsigned char *image, size_t size, size_t off, uint64_t v,
		      int err)
{
	static unsigned char bad[16384];

	memcpy(bad, image, size);
	set_xsave_word(bad, off, v);
	CHECK_ERR(err, xstate_request(PTRACE_SETREGSET, pid, bad, size));
}

TEST(ptrace_xstate_regset_is_the_xsave_layout_gdb_reads)
{
	static unsigned char image[16384] __attribute__((aligned(64)));
	static const unsigned char pattern[16] = "xmm0 via XSTATE";
	unsigned eax, ebx, ecx, edx;
	struct user_fpregs_struct fp;

	__cpuid(1, eax, ebx, ecx, edx);
	if (!(ecx & bit_OSXSAVE))
		skip("XSAVE is not enabled on this CPU");
	__cpuid_count(0xd, 0, eax, ebx, ecx, edx); /* ebx: the image size for XCR0's features */
	pid_t pid = traced_child(sleep_forever);
	struct iovec iov = { image, sizeof(image) };
	CHECK_OK(trace(PTRACE_GETREGSET, pid, NOTE_X86_XSTATE, (unsigned long)&iov));
	CHECK_EQ(iov.iov_len, (size_t)ebx);
	size_t size = iov.iov_len;
	CHECK(xsave_word(image, XSAVE_SW_BYTES) == xcr0());
	CHECK((xsave_word(image, XSAVE_XFEATURES) & ~xcr0()) == 0);
	CHECK(xsave_word(image, XSAVE_XCOMP_BV) == 0); /* the standard format, not compacted */
	CHECK_OK(trace(PTRACE_GETFPREGS, pid, 0, (unsigned long)&fp));
	CHECK(memcmp(image, &fp, XSAVE_XMM0 + 256) == 0); /* the FXSAVE region is the same */

	/* A new XMM0 goes in through the image and comes out through GETFPREGS. */
	memcpy(image + XSAVE_XMM0, pattern, sizeof(pattern));
	set_xsave_word(image, XSAVE_XFEATURES, xsave_word(image, XSAVE_XFEATURES) | 3);
	CHECK_OK(xstate_request(PTRACE_SETREGSET, pid, image, size));
	CHECK_OK(trace(PTRACE_GETFPREGS, pid, 0, (unsigned long)&fp));
	CHECK(memcmp(fp.xmm_space, pattern, sizeof(pattern)) == 0);

	CHECK_ERR(EINVAL, xstate_request(PTRACE_GETREGSET, pid, image, 12)); /* not whole words */
	CHECK_ERR(EFAULT, xstate_request(PTRACE_SETREGSET, pid, image, size - 8));
	expect_xstate_refused(pid, image, size, XSAVE_XFEATURES, 1ull << 63, EINVAL);
	expect_xstate_refused(pid, image, size, XSAVE_XCOMP_BV, (1ull << 63) | 3, EINVAL);
	expect_xstate_refused(pid, image, size, XSAVE_MXCSR, 0xffffffffu, EINVAL);
	CHECK_OK(trace(PTRACE_GETFPREGS, pid, 0, (unsigned long)&fp));
	CHECK(memcmp(fp.xmm_space, pattern, sizeof(pattern)) == 0); /* refusals change nothing */
	kill_and_reap(pid);
}

TEST(ptrace_peek_and_poke_data_and_read_only_text)
{
	pid_t pid = traced_child(expect_poked_words);

	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGSTOP);
	errno = 0;
	CHECK(ptrace(PTRACE_PEEKDATA, pid, &data_word, 0) == 0x1122334455667788 && errno == 0);
	CHECK_EQ(ptrace(PTRACE_PEEKTEXT, pid, &rodata_word, 0), 0x0102030405060708);
	CHECK_OK(trace(PTRACE_POKEDATA, pid, (unsigned long)&data_word, 0x7777));
	CHECK_OK(trace(PTRACE_POKETEXT, pid, (unsigned long)&rodata_word, 0x8888));
	CHECK_ERR(EIO, trace(PTRACE_POKEDATA, pid, 8, 1));
	CHECK(data_word == 0x1122334455667788 && rodata_word == 0x0102030405060708);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 0, "the tracee, reading the poked words");
}

/* /proc/<pid>/mem: the tracee's memory at the file offset of its address, as gdb reads it. */
TEST(ptrace_proc_pid_mem_reads_and_writes_the_tracee)
{
	pid_t pid = traced_child(expect_poked_words);
	char path[64];
	long word = 0x7777, text_word = 0x8888, got = 0;

	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGSTOP);
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	int fd = CHECK_OK(open(path, O_RDWR));
	CHECK_EQ(pread(fd, &got, sizeof(got), (off_t)&data_word), (ssize_t)sizeof(got));
	CHECK_EQ(got, 0x1122334455667788);
	CHECK_EQ(pwrite(fd, &word, sizeof(word), (off_t)&data_word), (ssize_t)sizeof(word));
	CHECK_EQ(pwrite(fd, &text_word, sizeof(text_word), (off_t)&rodata_word),
		 (ssize_t)sizeof(text_word)); /* read-only to the program, not to its debugger */
	CHECK_ERR(EIO, pread(fd, &got, sizeof(got), 8)); /* nothing mapped there */
	CHECK_OK(close(fd));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 0, "the tracee, reading the words written through mem");
}

/* ---- signals ---------------------------------------------------------------------------- */

static volatile int usr1_caught;

static void
count_usr1(int sig)
{
	(void)sig;
	usr1_caught++;
}

static void
raise_usr1_then_usr2(void)
{
	signal(SIGUSR1, count_usr1);
	raise(SIGUSR1); /* the tracer drops it */
	raise(SIGUSR2); /* the tracer delivers SIGUSR1 instead */
	_exit(usr1_caught == 1 ? 0 : 1);
}

TEST(ptrace_tracer_drops_and_injects_signals)
{
	pid_t pid = traced_child(raise_usr1_then_usr2);
	siginfo_t si;

	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGUSR1);
	CHECK_OK(trace(PTRACE_GETSIGINFO, pid, 0, (unsigned long)&si));
	CHECK(si.si_signo == SIGUSR1 && si.si_code == SI_TKILL && si.si_pid == pid);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGUSR2);
	CHECK_ERR(EIO, trace(PTRACE_CONT, pid, 0, 65));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, SIGUSR1));
	expect_exited(wait_traced(pid), 0, "the tracee, with one SIGUSR1 handled");
}

TEST(ptrace_a_fatal_signal_stops_first_and_kills_when_passed_on)
{
	pid_t pid = traced_child(sleep_forever);

	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	kill(pid, SIGTERM);
	expect_stop(pid, SIGTERM);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, SIGTERM));
	expect_signaled(wait_traced(pid), SIGTERM, "the tracee");
}

/* ---- breakpoints and single-step -------------------------------------------------------- */

static void
hit_int3(void)
{
	__asm__ volatile("int3");
}

TEST(ptrace_int3_stops_with_sigtrap_and_continues)
{
	pid_t pid = traced_child(hit_int3);
	struct user_regs_struct regs;

	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGTRAP);
	CHECK_OK(trace(PTRACE_GETREGS, pid, 0, (unsigned long)&regs));
	CHECK_EQ((ptrace(PTRACE_PEEKTEXT, pid, regs.rip - 1, 0) & 0xff), 0xcc);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 0, "the tracee after its breakpoint");
}

TEST(ptrace_singlestep_stops_after_one_instruction)
{
	pid_t pid = traced_child(call_getppid_and_exit);
	struct user_regs_struct before, after;

	CHECK_OK(trace(PTRACE_GETREGS, pid, 0, (unsigned long)&before));
	for (int i = 0; i < 3; i++) {
		CHECK_OK(trace(PTRACE_SINGLESTEP, pid, 0, 0));
		expect_stop(pid, SIGTRAP);
	}
	CHECK_OK(trace(PTRACE_GETREGS, pid, 0, (unsigned long)&after));
	CHECK(after.rip != before.rip);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0)); /* TF off again: it runs to its end */
	expect_exited(wait_traced(pid), 0, "the stepped tracee");
}

#define EFLAGS_TF 0x100

static unsigned long long
eflags_of(pid_t pid)
{
	struct user_regs_struct regs;

	CHECK_OK(trace(PTRACE_GETREGS, pid, 0, (unsigned long)&regs));
	return regs.eflags;
}

static void
set_eflags(pid_t pid, unsigned long long eflags)
{
	struct user_regs_struct regs;

	CHECK_OK(trace(PTRACE_GETREGS, pid, 0, (unsigned long)&regs));
	regs.eflags = eflags;
	CHECK_OK(trace(PTRACE_SETREGS, pid, 0, (unsigned long)&regs));
}

/*
 * The TF a step sets is the tracer's and does not show in the registers;
 * a TF the program has (here written by the tracer, which Linux takes as
 * the program's) survives a step and a CONT: the next instruction traps.
 */
TEST(ptrace_singlestep_keeps_the_programs_own_trap_flag)
{
	pid_t pid = traced_child(call_getppid_and_exit);

	CHECK_OK(trace(PTRACE_SINGLESTEP, pid, 0, 0));
	expect_stop(pid, SIGTRAP);
	CHECK(!(eflags_of(pid) & EFLAGS_TF));
	set_eflags(pid, eflags_of(pid) | EFLAGS_TF);
	CHECK_OK(trace(PTRACE_SINGLESTEP, pid, 0, 0));
	expect_stop(pid, SIGTRAP);
	CHECK(eflags_of(pid) & EFLAGS_TF);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGTRAP); /* the program's own TF, still set */
	set_eflags(pid, eflags_of(pid) & ~EFLAGS_TF);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 0, "the tracee whose TF was cleared");
}

static void
fork_a_child_exiting_0(void)
{
	int status;
	long child = syscall(SYS_fork);

	if (child == 0)
		_exit(0);
	_exit(waitpid((pid_t)child, &status, 0) == child && status == 0 ? 0 : 1);
}

TEST(ptrace_a_stepped_fork_child_is_not_stepped)
{
	pid_t pid = traced_child(fork_a_child_exiting_0);
	int status = STOPPED_WITH(SIGTRAP);

	/* Step until it ends; another signal's stop (SIGCHLD) is passed over. */
	for (int steps = 0; WIFSTOPPED(status) && steps < 100000; steps++) {
		CHECK_OK(trace(PTRACE_SINGLESTEP, pid, 0, 0));
		status = wait_traced(pid);
	}
	expect_exited(status, 0, "the stepped tracee, whose child ran untrapped");
}

/* ---- events ----------------------------------------------------------------------------- */

static void
fork_a_child_exiting_7(void)
{
	pid_t child = fork();

	if (child == 0)
		_exit(7);
	_exit(waitpid(child, NULL, 0) == child ? 0 : 1);
}

TEST(ptrace_tracefork_attaches_the_child)
{
	pid_t pid = traced_child(fork_a_child_exiting_7);
	unsigned long child;

	CHECK_OK(trace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEFORK));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGTRAP | (PTRACE_EVENT_FORK << 8));
	CHECK_OK(trace(PTRACE_GETEVENTMSG, pid, 0, (unsigned long)&child));
	expect_stop((pid_t)child, SIGSTOP); /* the new tracee's first stop */
	CHECK_EQ(tracer_pid_of((pid_t)child), getpid());
	CHECK_OK(trace(PTRACE_CONT, (pid_t)child, 0, 0));
	expect_exited(wait_traced((pid_t)child), 7, "the traced grandchild");
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGCHLD); /* the grandchild's end, queued during the event stop */
	CHECK_OK(trace(PTRACE_CONT, pid, 0, SIGCHLD));
	expect_exited(wait_traced(pid), 0, "the tracee");
}

TEST(ptrace_traceexec_reports_the_exec_event)
{
	pid_t pid = xfork();
	unsigned long former;

	if (pid == 0) {
		CHECK_OK(ptrace(PTRACE_TRACEME, 0, 0, 0));
		raise(SIGSTOP);
		execl(self_path, self_path, "--helper", "exit", "6", (char *)NULL);
		_exit(99);
	}
	expect_stop(pid, SIGSTOP);
	CHECK_OK(trace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEEXEC));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGTRAP | (PTRACE_EVENT_EXEC << 8));
	CHECK_OK(trace(PTRACE_GETEVENTMSG, pid, 0, (unsigned long)&former));
	CHECK_EQ((pid_t)former, pid);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 6, "the traced program");
}

/* The middle process: seizes target with options, then exits. */
static void
seize_and_exit(pid_t target, unsigned long options)
{
	pid_t middle = xfork();

	if (middle == 0)
		_exit(trace(PTRACE_SEIZE, target, 0, options) == 0 ? 0 : 1);
	expect_exited(wait_status(middle), 0, "the tracer");
}

TEST(ptrace_exitkill_kills_the_tracee_when_the_tracer_ends)
{
	pid_t target = xfork();

	if (target == 0)
		sleep_forever();
	seize_and_exit(target, PTRACE_O_EXITKILL);
	expect_signaled(wait_status(target), SIGKILL, "the tracee of an ended tracer");
}

TEST(ptrace_tracer_end_detaches_its_tracees)
{
	pid_t target = xfork();

	if (target == 0)
		sleep_forever();
	seize_and_exit(target, 0);
	CHECK_EQ(tracer_pid_of(target), 0);
	kill_and_reap(target);
}

/* ---- process_vm_readv ------------------------------------------------------------------- */

TEST(process_vm_readv_reads_another_process)
{
	static char text[] = "in the other process";
	pid_t pid = xfork();
	char buf[8], rest[64] = { 0 };
	struct iovec local[2] = { { buf, sizeof(buf) }, { rest, sizeof(text) - sizeof(buf) } };
	struct iovec remote = { text, sizeof(text) };

	if (pid == 0) {
		memcpy(text, "IN THE OTHER PROCESS", sizeof(text));
		sleep_forever();
	}
	wait_until_asleep(pid);
	CHECK_EQ(CHECK_OK(process_vm_readv(pid, local, 2, &remote, 1, 0)), sizeof(text));
	CHECK(memcmp(buf, "IN THE O", 8) == 0 && strcmp(rest, "THER PROCESS") == 0);
	CHECK_ERR(EINVAL, process_vm_readv(pid, local, 2, &remote, 1, 1));
	kill_and_reap(pid);
}

/* ---- a debugger letting go of a fork child (gdb's detach-on-fork) ----------------------- */

static __attribute__((noinline)) int
breakpoint_site(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static void
fork_a_child_through_the_breakpoint_site(void)
{
	int status;
	pid_t child = fork();

	if (child == 0)
		_exit(breakpoint_site(-1));
	_exit(waitpid(child, &status, 0) == child && status == 0 ? 0 : 1);
}

TEST(ptrace_a_fork_child_let_go_after_its_breakpoint_is_removed_runs_on)
{
	pid_t pid = traced_child(fork_a_child_through_the_breakpoint_site);
	unsigned long site = (unsigned long)breakpoint_site, child;
	long original = ptrace(PTRACE_PEEKTEXT, pid, site, 0);

	/* A breakpoint in the parent's text, inherited by the fork child as gdb leaves it. */
	CHECK_OK(trace(PTRACE_POKETEXT, pid, site, (original & ~0xffL) | 0xcc));
	CHECK_OK(trace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEFORK));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGTRAP | (PTRACE_EVENT_FORK << 8));
	CHECK_OK(trace(PTRACE_GETEVENTMSG, pid, 0, (unsigned long)&child));
	expect_stop((pid_t)child, SIGSTOP);
	/* The breakpoint removed from the child only, then the child let go. */
	CHECK_OK(trace(PTRACE_POKEDATA, (pid_t)child, site, original));
	CHECK_EQ(ptrace(PTRACE_PEEKTEXT, pid, site, 0), ((original & ~0xffL) | 0xcc));
	CHECK_OK(trace(PTRACE_DETACH, (pid_t)child, 0, 0));
	/* The parent leaves its breakpoint for good and waits for the child. */
	CHECK_OK(trace(PTRACE_POKETEXT, pid, site, original));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	int status = wait_traced(pid);
	if (WIFSTOPPED(status) && WSTOPSIG(status) == SIGCHLD) {
		CHECK_OK(trace(PTRACE_CONT, pid, 0, SIGCHLD));
		status = wait_traced(pid);
	}
	expect_exited(status, 0, "the tracee, whose let-go child ran through and exited 0");
}

/* ---- hardware breakpoints: struct user's u_debugreg ------------------------------------- */

#define DEBUGREG(n) (offsetof(struct user, u_debugreg) + 8 * (n))
/* DR7: slot i's local enable, and its R/W (0 execute, 1 write) and LEN (0 one byte, 3 four). */
#define DR7_SLOT(i, rw, len) \
	((1ul << (2 * (i))) | ((unsigned long)((rw) | ((len) << 2)) << (16 + 4 * (i))))
#define DR7_EXECUTE 0
#define DR7_WRITE   1
#define DR7_LEN4    3

static unsigned long
peek_debugreg(pid_t pid, int n)
{
	unsigned long value;

	CHECK_OK(trace(PTRACE_PEEKUSER, pid, DEBUGREG(n), (unsigned long)&value));
	return value;
}

static __attribute__((noinline)) int
hw_breakpoint_target(int x)
{
	return x * 3 + 1;
}

static void
call_hw_breakpoint_target_once(void)
{
	int (*volatile target)(int) = hw_breakpoint_target; /* a real call, not inlined */

	if (target(4) != 13)
		_exit(91);
}

/*
 * Waits for pid's SIGTRAP stop and fails unless it is a hardware
 * breakpoint's. Some virtual machines never raise a guest's breakpoints
 * (gdb's watchpoints do not fire there either): off rewind, a tracee that
 * ran to its end instead is a skip.
 */
static void
expect_hw_breakpoint_stop(pid_t pid)
{
	siginfo_t si;
	int status = wait_traced(pid);

	if (WIFEXITED(status) && !on_rewind())
		skip("this machine's debug registers never fire (a VM that keeps them)");
	if (status != STOPPED_WITH(SIGTRAP))
		fail("pid %d: wait status %#x, want %#x", pid, status, STOPPED_WITH(SIGTRAP));
	CHECK_OK(trace(PTRACE_GETSIGINFO, pid, 0, (unsigned long)&si));
	CHECK(si.si_signo == SIGTRAP && si.si_code == TRAP_HWBKPT);
}

TEST(ptrace_dr0_execute_breakpoint_stops_once_at_the_function)
{
	pid_t pid = traced_child(call_hw_breakpoint_target_once);
	unsigned long target = (unsigned long)hw_breakpoint_target;
	struct user_regs_struct regs;

	CHECK_OK(trace(PTRACE_POKEUSER, pid, DEBUGREG(0), target));
	CHECK_OK(trace(PTRACE_POKEUSER, pid, DEBUGREG(7), DR7_SLOT(0, DR7_EXECUTE, 0)));
	CHECK(peek_debugreg(pid, 0) == target);
	CHECK(peek_debugreg(pid, 7) == DR7_SLOT(0, DR7_EXECUTE, 0));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_hw_breakpoint_stop(pid);
	CHECK_OK(trace(PTRACE_GETREGS, pid, 0, (unsigned long)&regs));
	CHECK(regs.rip == target); /* before the instruction: a breakpoint is a fault */
	CHECK((peek_debugreg(pid, 6) & 0xf) == 1); /* DR6 says slot 0 hit */
	/* Still armed: the instruction runs on (RF) and the one call is the one stop. */
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 0, "the tracee past its hardware breakpoint");
}

/*
 * A slot armed by its global-enable bit alone (G0, DR7 bit 1) is the
 * tracee's own breakpoint all the same, as Linux's decode_dr7 takes L or
 * G: reads back as written, stops the tracee, and no other task.
 */
TEST(ptrace_dr7_global_enable_arms_the_slot_for_the_tracee_only)
{
	pid_t pid = traced_child(call_hw_breakpoint_target_once);
	unsigned long target = (unsigned long)hw_breakpoint_target, dr7 = 2;

	CHECK_OK(trace(PTRACE_POKEUSER, pid, DEBUGREG(0), target));
	CHECK_OK(trace(PTRACE_POKEUSER, pid, DEBUGREG(7), dr7));
	CHECK(peek_debugreg(pid, 7) == dr7);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_hw_breakpoint_stop(pid);
	CHECK_EQ(hw_breakpoint_target(4), 13); /* the tracer's own call: no trap here */
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 0, "the tracee past its global-enable breakpoint");
}

static volatile int watched_word;

/* Writes the watched word, then has the kernel write it (read from a pipe), which is no stop. */
static void
write_the_watched_word(void)
{
	int fds[2], want = 0x64636261; /* "abcd" */

	watched_word = 1;
	if (pipe(fds) || write(fds[1], "abcd", 4) != 4 ||
	    read(fds[0], (void *)&watched_word, 4) != 4)
		_exit(91);
	_exit(watched_word == want ? 0 : 92);
}

TEST(ptrace_dr1_write_watchpoint_stops_after_the_write)
{
	pid_t pid = traced_child(write_the_watched_word);
	unsigned long addr = (unsigned long)&watched_word;

	CHECK_OK(trace(PTRACE_POKEUSER, pid, DEBUGREG(1), addr));
	CHECK_OK(trace(PTRACE_POKEUSER, pid, DEBUGREG(7), DR7_SLOT(1, DR7_WRITE, DR7_LEN4)));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_hw_breakpoint_stop(pid);
	CHECK((peek_debugreg(pid, 6) & 0xf) == 2);
	CHECK((int)ptrace(PTRACE_PEEKDATA, pid, addr, 0) == 1); /* a watchpoint traps after */
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_exited(wait_traced(pid), 0, "the tracee after its watchpoint");
}

TEST(ptrace_debugregs_refuse_bad_dr7_and_kernel_addresses)
{
	pid_t pid = traced_child(sleep_forever);

	CHECK_ERR(EINVAL,
		  trace(PTRACE_POKEUSER, pid, DEBUGREG(7), DR7_SLOT(0, DR7_EXECUTE, DR7_LEN4)));
	CHECK_ERR(EINVAL, trace(PTRACE_POKEUSER, pid, DEBUGREG(7), DR7_SLOT(0, 2 /* I/O */, 0)));
	CHECK_OK(trace(PTRACE_POKEUSER, pid, DEBUGREG(0), (unsigned long)&watched_word + 1));
	CHECK_ERR(EINVAL,
		  trace(PTRACE_POKEUSER, pid, DEBUGREG(7), DR7_SLOT(0, DR7_WRITE, DR7_LEN4)));
	CHECK(peek_debugreg(pid, 7) == 0); /* each refusal left DR7 as it was */
	CHECK_ERR(EINVAL, trace(PTRACE_POKEUSER, pid, DEBUGREG(1), 0xffffffff81000000ul));
	CHECK(peek_debugreg(pid, 1) == 0);
	kill_and_reap(pid);
}
