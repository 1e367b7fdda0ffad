/*
 * profile.c - the sampling profiler; see profile.h.
 *
 * Buffers. Each CPU has one buffer of u64 words, appended to by its own
 * NMIs only. A sample is a header word (bits 0-7: how many pcs follow,
 * bits 8-9: the mode, bits 32-63: the pid), the interrupted task's comm
 * (COMM_WORDS words: a profile is read after its programs have exited, so
 * the name cannot be looked up later) and then the kernel pcs, leaf first,
 * or the user rip. The head is published after the words, so a
 * reader on another CPU copies [0, head) while sampling goes on. Nothing is
 * ever overwritten within a generation: a full buffer counts the sample as
 * lost. A reset only advances profile_gen; each CPU's next NMI sees the new
 * generation and starts its buffer again, and until then readers show the
 * buffer as empty. A reader checks the buffer's generation before and after
 * its copy (a seqlock whose writer never waits), so a reset racing with a
 * read makes that CPU's part of the read empty, never torn.
 *
 * Switching. The knob is read by every CPU's tick, which switches its own
 * LAPIC timer to NMI mode or back; the buffers are allocated (once, never
 * freed) in process context when the knob first turns on, so the tick and
 * the NMI never allocate. Each CPU follows a change within one tick.
 *
 * Reading. /proc/profile aggregates identical stacks per CPU at read time
 * and names the frames from the kernel's own symbol table (kernel/ksyms.c),
 * so the file is the same whichever build the host has: see
 * docs/profiler.md for the format and the host tools.
 */
#include "kernel/profile.h"
#include "kernel/time/tick.h"
#include "drivers/lapic.h"
#include "fs/proc/text.h"
#include "kernel/backtrace.h"
#include "kernel/knobs.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/process/task.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/x86.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

#define PROFILE_BUF_BYTES (1ul << 20) /* per CPU: about 9,000 samples of 14 words */

struct profile_cpu {
	u32 gen;      /* the reset generation the contents belong to */
	u32 rate;     /* samples per second this CPU takes now, 0: none (its tick sets it) */
	u32 credit;   /* rate per NMI; a sample each time it reaches the NMI rate */
	u64 head;     /* words in use, published after the sample's words */
	u64 samples;  /* recorded since the reset */
	u64 lost;     /* dropped: no room */
	u64 capacity; /* words[] */
	u64 words[];
};

static void profile_changed(void);

KNOB_INT_OFF(profile_hz, "profile", 0, 10000, true, profile_changed,
	     "sampling profiler: off, or samples per second on every CPU, taken by NMI "
	     "(see /proc/profile)");

static u32 profile_gen;	    /* advanced by each reset */
static int profile_last_hz; /* the last rate asked for: the rate of the samples */
static bool profile_ready;  /* the APs are up and kmalloc works: buffers may be made */

#define HDR_WORDS(h) ((u32)((h)&0xff))
#define HDR_MODE(h)  ((enum profile_mode)(((h) >> 8) & 3))
#define HDR_PID(h)   ((int)((h) >> 32))

#define COMM_WORDS (TASK_COMM_LEN / sizeof(u64))
BUILD_BUG_ON(TASK_COMM_LEN % sizeof(u64) != 0);

/* A sample at w: its length in words, where its comm and its pcs start. */
#define SAMPLE_WORDS(w) (1 + COMM_WORDS + HDR_WORDS((w)[0]))
#define SAMPLE_COMM(w)	((const char *)((w) + 1))
#define SAMPLE_PCS(w)	((w) + 1 + COMM_WORDS)

static u64
make_hdr(u32 nwords, enum profile_mode mode, int pid)
{
	return nwords | (u64)mode << 8 | (u64)(u32)pid << 32;
}

/* ---- buffers (process context) --------------------------------------------- */

static bool
alloc_buffers(void)
{
	bool ok = true;

	for (unsigned i = 0; i < READ_ONCE(ncpus); i++) {
		struct cpu *c = READ_ONCE(cpus[i]);
		if (!c || READ_ONCE(c->profile))
			continue;
		struct profile_cpu *p = kzalloc(PROFILE_BUF_BYTES);
		if (!p) {
			ok = false;
			continue;
		}
		p->capacity = (PROFILE_BUF_BYTES - sizeof(*p)) / sizeof(u64);
		p->gen = READ_ONCE(profile_gen);
		struct profile_cpu *none = NULL;
		/* Two writers of the knob at once: one buffer wins, the other goes back. */
		if (!__atomic_compare_exchange_n(&c->profile, &none, p, false, __ATOMIC_RELEASE,
						 __ATOMIC_RELAXED))
			kfree(p);
	}
	return ok;
}

/* Also runs for the command line, before kmalloc: profile_init does the work then. */
static void
profile_changed(void)
{
	if (READ_ONCE(profile_hz))
		WRITE_ONCE(profile_last_hz, READ_ONCE(profile_hz));
	if (!READ_ONCE(profile_ready) || !READ_ONCE(profile_hz))
		return;
	if (!alloc_buffers()) {
		pr_warn("profile: no memory for the sample buffers (%lu KiB per CPU); profile=off\n",
			PROFILE_BUF_BYTES / 1024);
		WRITE_ONCE(profile_hz, 0);
	}
	tick_nohz_wake_all(); /* a CPU whose tick stopped takes the new rate at its next tick */
}

void
profile_init(void)
{
	WRITE_ONCE(profile_ready, true);
	profile_changed();
	if (READ_ONCE(profile_hz))
		pr_info("profile: sampling at %d Hz on every CPU (LAPIC timer NMIs)\n", profile_hz);
}

void
profile_reset(void)
{
	__atomic_fetch_add(&profile_gen, 1, __ATOMIC_RELEASE);
}

/* ---- this CPU's timer (its tick, interrupts off) ----------------------------- */

bool
profile_tick_wanted(void)
{
	struct profile_cpu *p = READ_ONCE(this_cpu()->profile);

	return p && READ_ONCE(p->rate) != (u32)READ_ONCE(profile_hz);
}

void
profile_tick(void)
{
	struct cpu *c = this_cpu();
	struct profile_cpu *p = READ_ONCE(c->profile);

	if (!p)
		return;
	u32 want = (u32)READ_ONCE(profile_hz);
	if (want == p->rate)
		return;
	if (want) {
		p->credit = 0;
		WRITE_ONCE(p->rate, want);
		lapic_timer_nmi_mode(MAX(want, (u32)hz));
	} else {
		lapic_timer_nmi_mode(0);
		WRITE_ONCE(p->rate, 0);
	}
}

/* ---- the sample (NMI context: no locks, no faults, no allocation) ------------- */

static void
record(struct profile_cpu *p, struct trap_frame *f)
{
	u64 pcs[PROFILE_DEPTH];
	enum profile_mode mode;
	int n;

	u32 gen = READ_ONCE(profile_gen);
	if (p->gen != gen) {
		/* A reset: the generation first, so that a reader mid-copy discards it. */
		WRITE_ONCE(p->gen, gen);
		barrier();
		WRITE_ONCE(p->head, 0);
		WRITE_ONCE(p->samples, 0);
		WRITE_ONCE(p->lost, 0);
		barrier();
	}
	if (trap_from_user(f)) {
		mode = PROFILE_USER;
		pcs[0] = f->rip;
		n = 1;
	} else {
		mode = f->rflags & RFLAGS_IF ? PROFILE_KERNEL : PROFILE_KERNEL_IRQOFF;
		n = backtrace_collect_bounded(f->rip, f->rsp, f->rbp, pcs, PROFILE_DEPTH);
	}
	u64 head = p->head, *w = &p->words[head];
	if (head + 1 + COMM_WORDS + (u64)n > p->capacity) {
		WRITE_ONCE(p->lost, p->lost + 1);
		return;
	}
	struct task *t = READ_ONCE(this_cpu()->current);
	w[0] = make_hdr((u32)n, mode, t ? t->pid : 0);
	/* Unlocked: an exec renaming t right now can only tear this sample's name. */
	for (unsigned i = 0; i < COMM_WORDS; i++)
		w[1 + i] = t ? ((const u64 *)t->comm)[i] : 0;
	for (int i = 0; i < n; i++)
		SAMPLE_PCS(w)[i] = pcs[i];
	barrier(); /* the words before the head that publishes them (stores stay in order on x86) */
	WRITE_ONCE(p->head, head + SAMPLE_WORDS(w));
	WRITE_ONCE(p->samples, p->samples + 1);
}

bool
profile_nmi(struct trap_frame *f)
{
	struct cpu *c = this_cpu();
	struct profile_cpu *p = READ_ONCE(c->profile);
	u32 nmi_rate = READ_ONCE(c->timer_nmi_rate);

	if (!p || !nmi_rate)
		return false;
	lapic_timer_nmi_tick();
	/* Below hz the timer runs at hz: take rate of every nmi_rate NMIs. */
	p->credit += READ_ONCE(p->rate);
	if (p->credit < nmi_rate)
		return true;
	p->credit -= nmi_rate;
	if (paravirt_text_changing()) { /* the walk below runs paravirt sites */
		WRITE_ONCE(p->lost, p->lost + 1);
		return true;
	}
	record(p, f);
	return true;
}

/* ---- reading ------------------------------------------------------------------- */

struct snapshot {
	u64 *words;
	u64 nwords, samples, lost;
};

/* Copies cpu's samples of generation gen; false (and nothing) if it has none. */
static bool
snapshot_cpu(struct profile_cpu *p, u32 gen, struct snapshot *s)
{
	s->nwords = s->samples = s->lost = 0;
	if (!p || READ_ONCE(p->gen) != gen)
		return false; /* never sampled, or a reset it has not seen yet: empty */
	barrier();
	u64 head = READ_ONCE(p->head), samples = READ_ONCE(p->samples), lost = READ_ONCE(p->lost);
	barrier();
	memcpy(s->words, p->words, head * sizeof(u64));
	barrier();
	if (READ_ONCE(p->gen) != gen)
		return false; /* reset while we copied */
	s->nwords = head;
	s->samples = samples;
	s->lost = lost;
	return true;
}

static struct profile_cpu *
cpu_buffer(unsigned cpu)
{
	struct cpu *c = cpu < MAX_CPUS ? READ_ONCE(cpus[cpu]) : NULL;

	return c ? READ_ONCE(c->profile) : NULL;
}

void
profile_cpu_state(unsigned cpu, struct profile_cpu_state *out)
{
	struct profile_cpu *p = cpu_buffer(cpu);
	u32 gen = READ_ONCE(profile_gen);

	*out = (struct profile_cpu_state){ 0 };
	if (!p)
		return;
	out->rate = READ_ONCE(p->rate);
	if (READ_ONCE(p->gen) != gen)
		return;
	out->samples = READ_ONCE(p->samples);
	out->lost = READ_ONCE(p->lost);
}

/* Frame i of a sample: the sampled rip itself, or a return address (just past its call). */
static bool
frame_in(const u64 *pcs, u32 i, u64 lo, u64 hi)
{
	return i == 0 ? pcs[0] >= lo && pcs[0] < hi : pcs[i] > lo && pcs[i] <= hi;
}

bool
profile_find_sample(unsigned cpu, enum profile_mode mode, u64 lo, u64 hi, u64 caller_lo,
		    u64 caller_hi)
{
	struct profile_cpu *p = cpu_buffer(cpu);
	struct snapshot s = { .words = p ? kmalloc(p->capacity * sizeof(u64)) : NULL };
	bool found = false;

	if (!s.words)
		return false;
	snapshot_cpu(p, READ_ONCE(profile_gen), &s);
	for (u64 i = 0; i < s.nwords && !found; i += SAMPLE_WORDS(&s.words[i])) {
		const u64 *pcs = SAMPLE_PCS(&s.words[i]);
		u32 n = HDR_WORDS(s.words[i]), at = 0;
		if (HDR_MODE(s.words[i]) != mode)
			continue;
		while (at < n && !frame_in(pcs, at, lo, hi))
			at++;
		if (at == n)
			continue;
		found = !caller_hi;
		for (u32 j = at + 1; j < n && !found; j++)
			found = frame_in(pcs, j, caller_lo, caller_hi);
	}
	kfree(s.words);
	return found;
}

/*
 * Each kernel pc becomes the start of its function (a return address is
 * looked up one byte back: it may lie past a call to a noreturn function),
 * so that stacks differing only in where within a function they were
 * agree. Unknown pcs and user rips stay as they are.
 */
static void
canonicalize(u64 *words, u64 nwords)
{
	for (u64 i = 0; i < nwords; i += SAMPLE_WORDS(&words[i])) {
		u64 *pcs = SAMPLE_PCS(&words[i]);
		if (HDR_MODE(words[i]) == PROFILE_USER)
			continue;
		for (u32 j = 0; j < HDR_WORDS(words[i]); j++) {
			u64 look = j ? pcs[j] - 1 : pcs[j], off;
			if (ksym_lookup(look, &off, NULL))
				pcs[j] = look - off;
		}
	}
}

/* Samples aggregate when all their words agree: mode, pid, comm and stack. */
static u32
stack_hash(const u64 *w)
{
	u64 h = 14695981039346656037ul;

	for (u32 i = 0; i < SAMPLE_WORDS(w); i++)
		h = (h ^ w[i]) * 1099511628211ul;
	return (u32)(h ^ h >> 32);
}

static bool
same_stack(const u64 *a, const u64 *b)
{
	return a[0] == b[0] && memcmp(a + 1, b + 1, (SAMPLE_WORDS(a) - 1) * sizeof(u64)) == 0;
}

static const char mode_letters[] = { 'k', 'K', 'u' };

/* The comm as one word of the line: cut at its end, blanks and controls as '_'. */
static void
print_comm(struct procbuf *b, const char *comm)
{
	char word[TASK_COMM_LEN];
	size_t n = strnlen(comm, TASK_COMM_LEN - 1);

	for (size_t i = 0; i < n; i++)
		word[i] = comm[i] > ' ' && comm[i] < 0x7f ? comm[i] : '_';
	word[n] = '\0';
	procbuf_printf(b, " %s", n ? word : "-");
}

static void
print_stack(struct procbuf *b, unsigned cpu, u32 count, const u64 *w)
{
	const u64 *pcs = SAMPLE_PCS(w);

	procbuf_printf(b, "%u %u %c %d", count, cpu, mode_letters[HDR_MODE(w[0])], HDR_PID(w[0]));
	print_comm(b, SAMPLE_COMM(w));
	for (u32 i = 0; i < HDR_WORDS(w[0]); i++) {
		const char *name =
			HDR_MODE(w[0]) == PROFILE_USER ? NULL : ksym_lookup(pcs[i], NULL, NULL);
		if (name)
			procbuf_printf(b, " %s", name);
		else
			procbuf_printf(b, " %#lx", pcs[i]);
	}
	procbuf_printf(b, "\n");
}

/* One CPU's snapshot as "count cpu mode pid comm frames..." lines, identical stacks merged. */
static int
print_aggregated(struct procbuf *b, unsigned cpu, struct snapshot *s)
{
	u64 size = 16, records = 0;

	for (u64 i = 0; i < s->nwords; i += SAMPLE_WORDS(&s->words[i]))
		records++;
	while (size < 2 * records) /* at most half full: probes stay short, and end */
		size *= 2;
	/* slot: index of the stack's first sample + 1 (0: empty), and its count */
	u32 *slot = kzalloc(size * sizeof(u32)), *count = kzalloc(size * sizeof(u32));
	if (!slot || !count) {
		kfree(slot);
		kfree(count);
		return -ENOMEM;
	}
	canonicalize(s->words, s->nwords);
	for (u64 i = 0; i < s->nwords; i += SAMPLE_WORDS(&s->words[i])) {
		u64 h = stack_hash(&s->words[i]) & (size - 1);
		while (slot[h] && !same_stack(&s->words[slot[h] - 1], &s->words[i]))
			h = (h + 1) & (size - 1);
		if (!slot[h])
			slot[h] = (u32)i + 1;
		count[h]++;
	}
	for (u64 h = 0; h < size; h++)
		if (slot[h])
			print_stack(b, cpu, count[h], &s->words[slot[h] - 1]);
	kfree(slot);
	kfree(count);
	return 0;
}

int
profile_show(struct procbuf *b)
{
	u32 gen = READ_ONCE(profile_gen);
	int err = 0;

	procbuf_printf(
		b,
		"# rewind profile v2\n"
		"# profile=%d: samples per second per CPU, by LAPIC timer NMI (now %s); hz=%d\n"
		"# stacks: frame pointers, at most %d frames, leaf first, named in the "
		"kernel (function names)\n"
		"# modes: k kernel, K kernel with interrupts off, u user (the frame is "
		"the user rip)\n"
		"# lines: count cpu mode pid comm frames (pid 0: a CPU's idle task)\n",
		READ_ONCE(profile_last_hz), READ_ONCE(profile_hz) ? "on" : "off", hz,
		PROFILE_DEPTH);
	for (unsigned cpu = 0; cpu < READ_ONCE(ncpus) && !err; cpu++) {
		struct profile_cpu *p = cpu_buffer(cpu);
		struct snapshot s = { 0 };
		if (p && !(s.words = kmalloc(p->capacity * sizeof(u64))))
			return -ENOMEM;
		snapshot_cpu(p, gen, &s);
		procbuf_printf(b, "# cpu %u: %lu samples, %lu lost\n", cpu, s.samples, s.lost);
		if (s.nwords)
			err = print_aggregated(b, cpu, &s);
		kfree(s.words);
	}
	procbuf_printf(b, "# end\n");
	return err;
}
