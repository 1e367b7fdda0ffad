/*
 * memory_failure.c - usertests: madvise's memory-error injection, root's
 * only (CAP_SYS_ADMIN). MADV_HWPOISON takes a page of the test's own
 * anonymous memory out of use: the next access there, in the process or a
 * fork child, is SIGBUS with si_code BUS_MCEERR_AR and si_addr_lsb 12,
 * until the range is unmapped. MADV_SOFT_OFFLINE moves the data to another
 * page without the process noticing. On Linux this needs
 * CONFIG_MEMORY_FAILURE (Debian's kernel has it): the frames poisoned are
 * the tests' own, lost for good as on rewind.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_SOFT_OFFLINE /* glibc's <sys/mman.h> leaves it to the kernel's header */
#include <linux/mman.h>
#endif

/* Root, and a kernel that injects errors: an empty range is EINVAL only without. */
static void
need_injection(void)
{
	if (geteuid() != 0)
		skip("needs root (CAP_SYS_ADMIN)");
	if (madvise((void *)(16 * PAGE), 0, MADV_HWPOISON) < 0 && errno == EINVAL)
		skip("no memory-error injection (Linux: CONFIG_MEMORY_FAILURE)");
}

static sigjmp_buf bus_escape;
static siginfo_t bus_info;

static void
on_sigbus(int sig, siginfo_t *info, void *ctx)
{
	(void)sig, (void)ctx;
	bus_info = *info;
	siglongjmp(bus_escape, 1);
}

/* Whether reading p raised SIGBUS (its siginfo then in bus_info). */
static bool
read_faults(const volatile char *p)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };

	CHECK_OK(sigaction(SIGBUS, &sa, NULL));
	if (sigsetjmp(bus_escape, 1))
		return true;
	(void)*p;
	return false;
}

/* A written page of private anonymous memory, poisoned. */
static char *
poisoned_page(void)
{
	char *p = map_anon(PAGE, PROT_READ | PROT_WRITE);

	memset(p, 'L', PAGE);
	CHECK_OK(madvise(p, PAGE, MADV_HWPOISON));
	return p;
}

TEST(madvise_hwpoison_sigbus_on_access)
{
	need_injection();
	char *p = poisoned_page();

	CHECK(read_faults(p + 100));
	CHECK_EQ(bus_info.si_code, BUS_MCEERR_AR);
	CHECK(bus_info.si_addr == p + 100);
	CHECK_EQ(bus_info.si_addr_lsb, 12);
	CHECK_OK(mprotect(p, PAGE, PROT_READ)); /* the poison stays */
	CHECK(read_faults(p));
	pid_t child = xfork();
	if (child == 0) /* a fork child inherits the poisoned entry */
		_exit(read_faults(p) && bus_info.si_code == BUS_MCEERR_AR ? 0 : 1);
	expect_exit(child, 0, "the child's access is SIGBUS too");
	CHECK_OK(munmap(p, PAGE));
	/* Mapped anew, the address has a fresh page. */
	char *again = mmap(p, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			   -1, 0);
	CHECK(again == p);
	CHECK(!read_faults(again) && again[5] == 0);
	munmap(again, PAGE);
}

static void
hwpoison_unprivileged(void)
{
	char *p = map_anon(PAGE, PROT_READ | PROT_WRITE);

	p[0] = 1;
	CHECK_OK(setuid(65534)); /* root's capabilities go with the uid */
	CHECK_ERR(EPERM, madvise(p, PAGE, MADV_HWPOISON));
	CHECK_ERR(EPERM, madvise(p, PAGE, MADV_SOFT_OFFLINE));
	CHECK(p[0] == 1);
	_exit(0);
}

TEST(madvise_hwpoison_needs_cap_sys_admin)
{
	need_injection();
	pid_t child = xfork();
	if (child == 0)
		hwpoison_unprivileged();
	expect_exit(child, 0, "an unprivileged process is refused");
}

TEST(madvise_hwpoison_unmapped_is_efault)
{
	need_injection();
	char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);

	CHECK_OK(munmap(p + PAGE, PAGE));
	p[0] = 1;
	CHECK_ERR(EFAULT, madvise(p + PAGE, PAGE, MADV_HWPOISON));
	munmap(p, PAGE);
}

TEST(madvise_soft_offline_keeps_data)
{
	need_injection();
	char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);

	fill_pattern((unsigned char *)p, 2 * PAGE, 7);
	CHECK_OK(madvise(p, 2 * PAGE, MADV_SOFT_OFFLINE));
	CHECK(has_pattern((unsigned char *)p, 2 * PAGE, 7));
	p[1] = 'w'; /* still writable */
	CHECK(p[1] == 'w');
	munmap(p, 2 * PAGE);
}
