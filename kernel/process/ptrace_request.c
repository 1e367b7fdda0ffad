/*
 * ptrace_request.c - the ptrace(2) system call: becoming a tracer
 * (TRACEME, ATTACH, SEIZE), and the requests a tracer makes of a tracee.
 *
 * A request names its tracee by thread id. All but KILL and INTERRUPT
 * need it in a ptrace stop and off its CPU (its registers are then in its
 * frame and its FPU image); otherwise, or if the caller is not its
 * tracer, -ESRCH, as Linux's ptrace_check_attach. Each request reads its
 * user input first, does its work under tasks_lock (which keeps the
 * tracee from being freed), and writes its output after.
 *
 * Who may attach is kernel/process/cred.h's task_may_inspect, the same
 * check /proc/<pid> makes: the caller's own user on a dumpable process,
 * or root.
 */
#include "kernel/process/ptrace_internal.h"
#include "mm/kmalloc.h"
#include "kernel/lib/string.h"
#include "kernel/process/cred.h"
#include "kernel/process/process.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/x86.h"
#include "kernel/x86/xstate.h"
#include "mm/vm.h"
#include "uapi/errno.h"
#include "uapi/uio.h"

/* ---- becoming a tracer ------------------------------------------------------------------ */

/* The thread that forked the caller's process, if it still lives, else its parent process. */
static struct task *
forking_thread_locked(struct task *leader)
{
	struct task *forker = task_find(leader->parent_tid);

	if (forker && forker->group_leader == leader->parent)
		return forker;
	return leader->parent;
}

static long
ptrace_traceme(void)
{
	struct ptrace_exit *exit = kzalloc(sizeof(*exit));
	struct task *t = current();
	long err = -EPERM;

	if (!exit)
		return -ENOMEM;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *tracer =
		t->group_leader->parent ? forking_thread_locked(t->group_leader) : NULL;
	if (tracer && tracer->mm)
		err = ptrace_link_locked(t, tracer, exit, false, 0);
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (err)
		kfree(exit);
	return err;
}

/* Whether the caller may trace t (found under tasks_lock): a user process, not its own, allowed. */
static long
may_attach_locked(struct task *t)
{
	if (!t)
		return -ESRCH;
	if (!t->mm || t->tgid == current()->tgid || !task_may_inspect(t))
		return -EPERM;
	return 0;
}

/*
 * Whether the caller's new tracee pid, woken from its group stop, has yet
 * to trap for its tracer; tasks_lock held.
 */
static bool
retrap_pending_locked(int pid)
{
	struct task *t = task_find(pid);

	return t && t->ptrace.tracer == current() && READ_ONCE(t->stopped) && !t->ptrace.stopped &&
	       !READ_ONCE(t->killed);
}

/*
 * A tracee attached while group-stopped is in its ptrace stop when ATTACH
 * returns, as Linux waits for JOBCTL_TRAPPING to clear: the tracer's next
 * request (LTP's ptrace08 pokes at once, without a wait) finds it stopped.
 */
static void
wait_for_retrap(int pid)
{
	for (;;) {
		u64 flags = spin_lock_irqsave(&tasks_lock);
		bool pending = retrap_pending_locked(pid);
		spin_unlock_irqrestore(&tasks_lock, flags);
		if (!pending || fatal_signal_pending())
			return;
		schedule(); /* runnable: only lets the tracee run to its trap */
	}
}

static long
ptrace_attach(int pid, bool seize, u64 addr, u64 options)
{
	if (seize && (addr || (options & ~PTRACE_O_MASK)))
		return -EIO;
	struct ptrace_exit *exit = kzalloc(sizeof(*exit));
	if (!exit)
		return -ENOMEM;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = task_find(pid);
	long err = may_attach_locked(t);
	if (!err)
		err = ptrace_link_locked(t, current(), exit, seize, seize ? options : 0);
	if (!err && !seize)
		signal_send_thread(t,
				   &(struct kernel_siginfo){ .signo = SIGSTOP, .code = SI_USER });
	/* Already group-stopped: it wakes to trap for its tracer (stop.c's signal_stop_join). */
	bool retraps = !err && READ_ONCE(t->stopped);
	if (retraps)
		wake_up_task(t);
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (err)
		kfree(exit);
	else if (retraps)
		wait_for_retrap(pid);
	return err;
}

/* ---- finding the tracee ----------------------------------------------------------------- */

/*
 * The caller's tracee pid, under tasks_lock (taken here, *flags to give
 * back), stopped and off its CPU if `stopped`; NULL (lock not held) with
 * -ESRCH in *err otherwise. A tracee on its way to sleep in its stop is
 * waited for: its registers are saved only when it leaves the CPU. A
 * listener (PTRACE_LISTEN) counts as running, as on Linux: it may leave
 * its stop at any moment.
 */
static struct task *
tracee_lock(int pid, bool stopped, u64 *flags, long *err)
{
	for (;;) {
		*flags = spin_lock_irqsave(&tasks_lock);
		struct task *t = task_find(pid);
		if (!t || t->ptrace.tracer != current() ||
		    (stopped && (!t->ptrace.stopped || t->ptrace.listening)))
			break;
		if (!stopped || !READ_ONCE(t->on_cpu))
			return t;
		spin_unlock_irqrestore(&tasks_lock, *flags);
		cpu_relax();
	}
	spin_unlock_irqrestore(&tasks_lock, *flags);
	*err = -ESRCH;
	return NULL;
}

static void
tracee_unlock(u64 flags)
{
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* The stopped tracee's address space, referenced, or NULL (*err set). */
static struct mm *
tracee_mm(int pid, long *err)
{
	u64 flags;
	struct task *t = tracee_lock(pid, true, &flags, err);

	if (!t)
		return NULL;
	struct mm *mm = get_task_mm(t);
	tracee_unlock(flags);
	if (!mm)
		*err = -ESRCH;
	return mm;
}

/* ---- memory ----------------------------------------------------------------------------- */

static long
peek(int pid, u64 addr, u64 __user *out)
{
	long err = 0;
	struct mm *mm = tracee_mm(pid, &err);
	u64 word;

	if (!mm)
		return err;
	size_t n = access_remote_vm(mm, addr, &word, sizeof(word));
	mm_put(mm);
	if (n != sizeof(word))
		return -EIO;
	return copy_to_user(out, &word, sizeof(word)) ? -EFAULT : 0;
}

static long
poke(int pid, u64 addr, u64 word)
{
	long err = 0;
	struct mm *mm = tracee_mm(pid, &err);

	if (!mm)
		return err;
	size_t n = access_remote_vm_write(mm, addr, &word, sizeof(word), true);
	mm_put(mm);
	return n == sizeof(word) ? 0 : -EIO;
}

/* ---- registers -------------------------------------------------------------------------- */

/* A register set as bytes: struct user_regs_struct, the FXSAVE image or the XSAVE one. */
union regset {
	struct kernel_user_regs regs;
	struct fpu_state fpu; /* the FXSAVE region (GETFPREGS) or the XSAVE image */
};

/* Every x86-64 regset is counted in 8-byte words (Linux's user_regset.size). */
#define REGSET_WORD 8

static long
regset_size(u64 note)
{
	switch (note) {
	case NT_PRSTATUS:
		return sizeof(struct kernel_user_regs);
	case NT_PRFPREG:
		return FXSAVE_SIZE;
	case NT_X86_XSTATE:
		return xstate_size() ? (long)xstate_size() : -ENODEV; /* no XSAVE: as Linux */
	default:
		return -EINVAL;
	}
}

/* Reads (set false) or writes the tracee's set `note`; tasks_lock held. */
static long
regset_access_locked(struct task *t, u64 note, union regset *r, bool set)
{
	if (note == NT_PRFPREG) {
		if (set)
			ptrace_set_fpregs(t, &r->fpu);
		else
			ptrace_get_fpregs(t, &r->fpu);
		return 0;
	}
	if (note == NT_X86_XSTATE) {
		if (set)
			return ptrace_set_xstate(t, &r->fpu);
		ptrace_get_xstate(t, &r->fpu);
		return 0;
	}
	if (set)
		return ptrace_set_regs(t, &r->regs);
	ptrace_get_regs(t, &r->regs);
	return 0;
}

/*
 * GETREGS and friends: the first len bytes of set `note`, copied out, or
 * copied in over the tracee's present values.
 */
static long
regset_request(int pid, u64 note, void __user *buf, size_t len, bool set)
{
	union regset r;
	long err = 0;
	u64 flags;

	struct task *t = tracee_lock(pid, true, &flags, &err);
	if (!t)
		return err;
	regset_access_locked(t, note, &r, false);
	tracee_unlock(flags);
	if (!set)
		return copy_to_user(buf, &r, len) ? -EFAULT : 0;
	if (copy_from_user(&r, buf, len))
		return -EFAULT;
	if (!(t = tracee_lock(pid, true, &flags, &err)))
		return err;
	err = regset_access_locked(t, note, &r, true);
	tracee_unlock(flags);
	return err;
}

/* GETREGSET/SETREGSET: the iovec says where and how much, and learns how much was done. */
static long
regset_iovec_request(int pid, u64 note, struct kernel_iovec __user *uiov, bool set)
{
	struct kernel_iovec iov;
	long size = regset_size(note);

	if (size < 0)
		return size;
	if (copy_from_user(&iov, uiov, sizeof(iov)))
		return -EFAULT;
	if (iov.iov_len % REGSET_WORD)
		return -EINVAL;
	/* Linux's xstateregs_set takes only a whole image. */
	if (set && note == NT_X86_XSTATE && iov.iov_len != (unsigned long)size)
		return -EFAULT;
	iov.iov_len = MIN(iov.iov_len, (unsigned long)size);
	long err = regset_request(pid, note, iov.iov_base, iov.iov_len, set);
	if (err)
		return err;
	return copy_to_user(&uiov->iov_len, &iov.iov_len, sizeof(iov.iov_len)) ? -EFAULT : 0;
}

static long
user_area_request(int pid, u64 off, u64 value, u64 __user *out, bool poke)
{
	long err = 0;
	u64 flags;
	struct task *t = tracee_lock(pid, true, &flags, &err);

	if (!t)
		return err;
	err = poke ? ptrace_poke_user(t, off, value) : ptrace_peek_user(t, off, &value);
	tracee_unlock(flags);
	if (err || poke)
		return err;
	return copy_to_user(out, &value, sizeof(value)) ? -EFAULT : 0;
}

/* ---- the stop's details ----------------------------------------------------------------- */

static long
siginfo_request(int pid, struct kernel_siginfo __user *uinfo, bool set)
{
	struct kernel_siginfo info;
	long err = 0;
	u64 flags;

	if (set && copy_from_user(&info, uinfo, sizeof(info)))
		return -EFAULT;
	struct task *t = tracee_lock(pid, true, &flags, &err);
	if (!t)
		return err;
	if (!t->ptrace.has_siginfo)
		err = -EINVAL; /* a group stop: how a tracer tells it from a signal's */
	else if (set)
		t->ptrace.siginfo = info;
	else
		info = t->ptrace.siginfo;
	tracee_unlock(flags);
	if (err || set)
		return err;
	return copy_to_user(uinfo, &info, sizeof(info)) ? -EFAULT : 0;
}

/* How many siginfos PTRACE_PEEKSIGINFO copies under the lock at a time. */
#define PEEK_BATCH 4

/*
 * PTRACE_PEEKSIGINFO: the pending siginfos, without taking them; how many
 * were copied (fewer than asked: the queue's end), -EFAULT if not even the
 * first could be, as Linux's ptrace_peek_siginfo.
 */
static long
peeksiginfo_request(int pid, const struct kernel_ptrace_peeksiginfo_args __user *uargs,
		    struct kernel_siginfo __user *out)
{
	struct kernel_ptrace_peeksiginfo_args args;
	struct kernel_siginfo batch[PEEK_BATCH];
	long err = 0, done = 0;
	u64 flags;

	if (copy_from_user(&args, uargs, sizeof(args)))
		return -EFAULT;
	if ((args.flags & ~PTRACE_PEEKSIGINFO_SHARED) || args.nr < 0)
		return -EINVAL;
	while (done < args.nr) {
		struct task *t = tracee_lock(pid, true, &flags, &err);
		if (!t)
			return done ? done : err;
		int n = signal_peek_queue(t, args.flags & PTRACE_PEEKSIGINFO_SHARED,
					  args.off + done, batch, MIN(args.nr - done, PEEK_BATCH));
		tracee_unlock(flags);
		if (copy_to_user(out + done, batch, n * sizeof(batch[0])))
			return done ? done : -EFAULT;
		done += n;
		if (n < PEEK_BATCH)
			break;
	}
	return done;
}

/* GETSIGMASK/SETSIGMASK: the size named must be a sigset_t's, as Linux asks. */
static long
sigmask_request(int pid, u64 size, u64 __user *umask, bool set)
{
	long err = 0;
	u64 flags, mask = 0;

	if (size != sizeof(mask))
		return -EINVAL;
	if (set && copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	struct task *t = tracee_lock(pid, true, &flags, &err);
	if (!t)
		return err;
	if (set)
		signal_set_tracee_mask(t, mask);
	else
		mask = signal_tracee_mask(t);
	tracee_unlock(flags);
	if (set)
		return 0;
	return copy_to_user(umask, &mask, sizeof(mask)) ? -EFAULT : 0;
}

/* PTRACE_GET_SYSCALL_INFO: the bytes that matter for the stop (Linux's sizes) are returned. */
static long
syscall_info_request(int pid, size_t len, void __user *buf)
{
	struct kernel_ptrace_syscall_info info = { .arch = AUDIT_ARCH_X86_64 };
	long err = 0, size = offsetof(struct kernel_ptrace_syscall_info, entry);
	u64 flags;
	struct task *t = tracee_lock(pid, true, &flags, &err);

	if (!t)
		return err;
	const struct trap_frame *f = task_user_frame(t);
	info.op = t->ptrace.syscall_stop;
	info.instruction_pointer = f->rip;
	info.stack_pointer = f->rsp;
	if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
		info.entry.nr = f->error;
		u64 args[6] = { f->rdi, f->rsi, f->rdx, f->r10, f->r8, f->r9 };
		memcpy(info.entry.args, args, sizeof(args));
		size = offsetof(struct kernel_ptrace_syscall_info, entry.args) + sizeof(args);
	} else if (info.op == PTRACE_SYSCALL_INFO_EXIT) {
		info.exit.rval = (long)f->rax;
		info.exit.is_error = f->rax >= (u64)-4095;
		size = offsetof(struct kernel_ptrace_syscall_info, exit.is_error) + 1;
	}
	tracee_unlock(flags);
	if (copy_to_user(buf, &info, MIN(len, (size_t)size)))
		return -EFAULT;
	return size;
}

/* ---- resuming and letting go ------------------------------------------------------------ */

static bool
valid_signal(u64 sig)
{
	return sig <= _NSIG;
}

static long
resume_request(long request, int pid, u64 sig)
{
	long err = 0;
	u64 flags;

	if (!valid_signal(sig))
		return -EIO;
	struct task *t = tracee_lock(pid, true, &flags, &err);
	if (!t)
		return err;
	if (request == PTRACE_DETACH) {
		t->ptrace.detached = true; /* its signal counts, as Linux's exit_code = data */
		ptrace_unlink_locked(t, (int)sig);
	} else
		ptrace_resume_locked(t, (int)sig, request == PTRACE_SYSCALL,
				     request == PTRACE_SINGLESTEP);
	tracee_unlock(flags);
	return 0;
}

/* KILL, INTERRUPT, LISTEN, SETOPTIONS, GETEVENTMSG: what needs no registers. */
static long
control_request(long request, int pid, u64 data)
{
	long err = 0;
	u64 flags, message = 0;
	bool stopped = request != PTRACE_KILL && request != PTRACE_INTERRUPT;
	struct task *t = tracee_lock(pid, stopped, &flags, &err);

	if (!t)
		return err;
	switch (request) {
	case PTRACE_KILL:
		signal_send_thread(t,
				   &(struct kernel_siginfo){ .signo = SIGKILL, .code = SI_USER });
		break;
	case PTRACE_INTERRUPT:
		if (t->ptrace.seized)
			ptrace_interrupt_locked(t);
		else
			err = -EIO;
		break;
	case PTRACE_LISTEN:
		err = ptrace_listen_locked(t);
		break;
	case PTRACE_SETOPTIONS:
		if (data & ~PTRACE_O_MASK)
			err = -EINVAL;
		else
			t->ptrace.options = data;
		break;
	default:
		message = t->ptrace.message;
	}
	tracee_unlock(flags);
	if (err || request != PTRACE_GETEVENTMSG)
		return err;
	return copy_to_user((u64 __user *)data, &message, sizeof(message)) ? -EFAULT : 0;
}

SYSCALL4(ptrace, long, request, long, pid, unsigned long, addr, unsigned long, data)
{
	switch (request) {
	case PTRACE_TRACEME:
		return ptrace_traceme();
	case PTRACE_ATTACH:
	case PTRACE_SEIZE:
		return ptrace_attach((int)pid, request == PTRACE_SEIZE, addr, data);
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA:
		return peek((int)pid, addr, (u64 __user *)data);
	case PTRACE_POKETEXT:
	case PTRACE_POKEDATA:
		return poke((int)pid, addr, data);
	case PTRACE_PEEKUSR:
	case PTRACE_POKEUSR:
		return user_area_request((int)pid, addr, data, (u64 __user *)data,
					 request == PTRACE_POKEUSR);
	case PTRACE_GETREGS:
	case PTRACE_SETREGS:
		return regset_request((int)pid, NT_PRSTATUS, (void __user *)data,
				      sizeof(struct kernel_user_regs), request == PTRACE_SETREGS);
	case PTRACE_GETFPREGS:
	case PTRACE_SETFPREGS:
		return regset_request((int)pid, NT_PRFPREG, (void __user *)data, FXSAVE_SIZE,
				      request == PTRACE_SETFPREGS);
	case PTRACE_GETREGSET:
	case PTRACE_SETREGSET:
		return regset_iovec_request((int)pid, addr, (struct kernel_iovec __user *)data,
					    request == PTRACE_SETREGSET);
	case PTRACE_GETSIGINFO:
	case PTRACE_SETSIGINFO:
		return siginfo_request((int)pid, (struct kernel_siginfo __user *)data,
				       request == PTRACE_SETSIGINFO);
	case PTRACE_PEEKSIGINFO:
		return peeksiginfo_request(
			(int)pid, (const struct kernel_ptrace_peeksiginfo_args __user *)addr,
			(struct kernel_siginfo __user *)data);
	case PTRACE_GETSIGMASK:
	case PTRACE_SETSIGMASK:
		return sigmask_request((int)pid, addr, (u64 __user *)data,
				       request == PTRACE_SETSIGMASK);
	case PTRACE_GET_SYSCALL_INFO:
		return syscall_info_request((int)pid, addr, (void __user *)data);
	case PTRACE_CONT:
	case PTRACE_SYSCALL:
	case PTRACE_SINGLESTEP:
	case PTRACE_DETACH:
		return resume_request(request, (int)pid, data);
	case PTRACE_KILL:
	case PTRACE_INTERRUPT:
	case PTRACE_LISTEN:
	case PTRACE_SETOPTIONS:
	case PTRACE_GETEVENTMSG:
		return control_request(request, (int)pid, data);
	default:
		return -EIO; /* the rest: not built (docs/ptrace.md) */
	}
}
