/*
 * random.c - see random.h.
 */
#include "kernel/random.h"
#include "kernel/process/cred.h"
#include "uapi/errno.h"
#include "kernel/x86/paravirt.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/x86/x86.h"
#include "locking/spinlock.h"
#include "uapi/random.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "mm/layout.h"

static bool have_rdrand;
static u64 state;
static u64 mixed_key; /* folded from what was mixed in; XORed into RDRAND's words */
static int entropy_bits = RANDOM_POOL_BITS;
static struct spinlock random_lock = SPINLOCK_INIT("random");

static bool
rdrand64(u64 *out)
{
	for (int tries = 0; tries < 10; tries++) {
		u8 ok;
		__asm__ __volatile__("rdrand %0; setc %1" : "=r"(*out), "=qm"(ok));
		if (ok)
			return true;
	}
	return false;
}

static u64
splitmix64(void)
{
	u64 z = (state += 0x9e3779b97f4a7c15ul);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ul;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebul;
	return z ^ (z >> 31);
}

static u64
random_u64(void)
{
	u64 v;

	if (have_rdrand && rdrand64(&v))
		return v ^ READ_ONCE(mixed_key);
	u64 flags = spin_lock_irqsave(&random_lock);
	state ^= rdtsc();
	v = splitmix64();
	spin_unlock_irqrestore(&random_lock, flags);
	return v;
}

void
random_init(void)
{
	have_rdrand = cpuid(1, 0).ecx & (1u << 30);
	state = rdtsc() * 0x2545f4914f6cdd1dul;
	pr_info("random: %s\n",
		have_rdrand ? "RDRAND" : "no RDRAND: a TSC-seeded generator (not cryptographic)");
}

void
get_random_bytes(void *buf, size_t n)
{
	u8 *p = buf;

	while (n) {
		u64 v = random_u64();
		size_t k = MIN(n, sizeof(v));
		memcpy(p, &v, k);
		p += k;
		n -= k;
	}
}

long
random_read_user(void __user *ubuf, size_t len)
{
	u8 chunk[256];
	size_t done = 0;

	while (done < len) {
		size_t k = MIN(len - done, sizeof(chunk));
		get_random_bytes(chunk, k);
		if (copy_to_user((u8 __user *)ubuf + done, chunk, k))
			return done ? (long)done : -EFAULT;
		done += k;
		/* At each page a signal cuts it short (as Linux), and others may run. */
		if (done < len && done % PAGE_SIZE == 0) {
			if (signal_pending())
				break;
			cond_resched();
		}
	}
	return (long)done;
}

/* Each word stirs the state as the TSC does; the key is drawn from the result. */
static void
mix_bytes(const u8 *buf, size_t n)
{
	u64 flags = spin_lock_irqsave(&random_lock);

	while (n) {
		u64 w = 0;
		size_t k = MIN(n, sizeof(w));
		memcpy(&w, buf, k);
		state ^= w;
		splitmix64();
		buf += k;
		n -= k;
	}
	WRITE_ONCE(mixed_key, splitmix64());
	spin_unlock_irqrestore(&random_lock, flags);
}

long
random_write_user(const void __user *ubuf, size_t len)
{
	u8 chunk[256];
	size_t done = 0;

	while (done < len) {
		size_t k = MIN(len - done, sizeof(chunk));
		if (copy_from_user(chunk, (const u8 __user *)ubuf + done, k))
			return done ? (long)done : -EFAULT;
		mix_bytes(chunk, k);
		done += k;
		if (done < len && done % PAGE_SIZE == 0)
			cond_resched();
	}
	return (long)done;
}

int
random_entropy_bits(void)
{
	return READ_ONCE(entropy_bits);
}

/* Linux's credit_init_bits: the count saturates at the pool's size. */
static void
credit_bits(int bits)
{
	u64 flags = spin_lock_irqsave(&random_lock);

	entropy_bits = MIN(entropy_bits + bits, RANDOM_POOL_BITS);
	spin_unlock_irqrestore(&random_lock, flags);
}

/* RNDADDENTROPY: {bits, len} then len bytes, all mixed in before the bits are credited. */
static long
add_entropy(int __user *p)
{
	int bits, len;

	if (copy_from_user(&bits, p, sizeof(bits)))
		return -EFAULT;
	if (bits < 0)
		return -EINVAL;
	if (copy_from_user(&len, p + 1, sizeof(len)))
		return -EFAULT;
	size_t n = (unsigned)len; /* a negative one faults, as in Linux */
	if (random_write_user(p + 2, n) != (long)n)
		return -EFAULT;
	credit_bits(bits);
	return 0;
}

long
random_ioctl(unsigned cmd, unsigned long arg)
{
	int __user *p = (int __user *)arg;
	int bits = random_entropy_bits();

	if (cmd == RNDGETENTCNT)
		return copy_to_user(p, &bits, sizeof(bits)) ? -EFAULT : 0;
	if (cmd != RNDADDTOENTCNT && cmd != RNDADDENTROPY && cmd != RNDZAPENTCNT &&
	    cmd != RNDCLEARPOOL && cmd != RNDRESEEDCRNG)
		return -EINVAL;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	switch (cmd) {
	case RNDADDTOENTCNT:
		if (copy_from_user(&bits, p, sizeof(bits)))
			return -EFAULT;
		if (bits < 0)
			return -EINVAL;
		credit_bits(bits);
		return 0;
	case RNDADDENTROPY:
		return add_entropy(p);
	case RNDRESEEDCRNG:
		mix_bytes((const u8 *)&(u64){ rdtsc() }, sizeof(u64));
		return 0;
	default: /* RNDZAPENTCNT, RNDCLEARPOOL: no effect since Linux 5.18 */
		return 0;
	}
}

SYSCALL3(getrandom, void __user *, ubuf, size_t, len, unsigned, flags)
{
	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM))
		return -EINVAL;
	if (len > 0x1ffffff)
		len = 0x1ffffff; /* Linux caps one call at 32 MiB - 1 */
	return random_read_user(ubuf, len);
}
