/*
 * userfaultfd.c - usertests: userfaultfd(2), a process handling the page
 * faults of its own registered memory: a handler thread answering faults
 * with UFFDIO_COPY and UFFDIO_ZEROPAGE, EEXIST for a page already there,
 * a fault the closing of the descriptor lets go, O_NONBLOCK and the
 * ioctls' EINVAL edges, the privilege rule (vm.unprivileged_userfaultfd),
 * a kernel access (read(2) into a registered page) with and without
 * UFFD_USER_MODE_ONLY, and a minor fault of a memfd answered with
 * UFFDIO_CONTINUE.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "lib/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include "uapi/userfaultfd.h" /* musl has no <linux/userfaultfd.h> */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int
new_uffd(int flags)
{
	return (int)syscall(SYS_userfaultfd, flags);
}

/* A userfaultfd past UFFDIO_API with features, and page registered in mode. */
static int
uffd_on(void *page, unsigned long long mode, unsigned long long features, int flags)
{
	int fd = new_uffd(flags);
	struct uffdio_api api = { .api = UFFD_API, .features = features };

	CHECK(fd >= 0);
	CHECK_OK(ioctl(fd, UFFDIO_API, &api));
	struct uffdio_register reg = { .range = { (unsigned long)page, PAGE }, .mode = mode };
	CHECK_OK(ioctl(fd, UFFDIO_REGISTER, &reg));
	CHECK(reg.ioctls & (1ull << _UFFDIO_WAKE));
	return fd;
}

/* A fresh page of anonymous memory registered for missing faults with a new userfaultfd, *fd. */
static char *
registered_anon(int *fd, int flags)
{
	char *page = map_anon(PAGE, PROT_READ | PROT_WRITE);

	*fd = uffd_on(page, UFFDIO_REGISTER_MODE_MISSING, 0, flags);
	return page;
}

/* The next fault message, waited for with poll. */
static struct uffd_msg
next_fault(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct uffd_msg msg;

	CHECK_EQ(poll(&p, 1, 10000), 1);
	CHECK_EQ(read(fd, &msg, sizeof(msg)), (long)sizeof(msg));
	CHECK_EQ(msg.event, UFFD_EVENT_PAGEFAULT);
	return msg;
}

struct handler {
	int fd;
	unsigned long long ioctl; /* UFFDIO_COPY or UFFDIO_ZEROPAGE */
	struct uffd_msg msg;	  /* the fault it answered */
};

/* Answers one fault: a page of 'X' copied in, or the zero page. */
static void *
handle_one(void *arg)
{
	struct handler *h = arg;
	static char source[PAGE] __attribute__((aligned(PAGE)));

	h->msg = next_fault(h->fd);
	unsigned long page = h->msg.arg.pagefault.address & ~(PAGE - 1);
	if (h->ioctl == UFFDIO_COPY) {
		memset(source, 'X', PAGE);
		struct uffdio_copy c = { .dst = page, .src = (unsigned long)source, .len = PAGE };
		CHECK_OK(ioctl(h->fd, UFFDIO_COPY, &c));
		CHECK_EQ(c.copy, (long long)PAGE);
	} else {
		struct uffdio_zeropage z = { .range = { page, PAGE } };
		CHECK_OK(ioctl(h->fd, UFFDIO_ZEROPAGE, &z));
		CHECK_EQ(z.zeropage, (long long)PAGE);
	}
	return NULL;
}

static void
start_handler(pthread_t *t, struct handler *h, int fd, unsigned long long ioctl_cmd)
{
	h->fd = fd;
	h->ioctl = ioctl_cmd;
	CHECK_EQ(pthread_create(t, NULL, handle_one, h), 0);
}

TEST(userfaultfd_copy_serves_fault)
{
	int fd;
	char *page = registered_anon(&fd, O_CLOEXEC | O_NONBLOCK);
	pthread_t t;
	struct handler h;

	start_handler(&t, &h, fd, UFFDIO_COPY);
	CHECK_EQ(page[0xf], 'X');
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(h.msg.arg.pagefault.address, (unsigned long long)(unsigned long)page);
	CHECK_EQ(h.msg.arg.pagefault.flags, 0ull); /* a read */
	/* A write fault says so. */
	int fd2;
	char *page2 = registered_anon(&fd2, 0);
	start_handler(&t, &h, fd2, UFFDIO_COPY);
	page2[1] = 'w';
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(h.msg.arg.pagefault.flags, (unsigned long long)UFFD_PAGEFAULT_FLAG_WRITE);
	CHECK_EQ(page2[0], 'X');
	CHECK_EQ(page2[1], 'w');
	close(fd);
	close(fd2);
}

TEST(userfaultfd_zeropage_and_eexist)
{
	int fd;
	char *page = registered_anon(&fd, 0);
	pthread_t t;
	struct handler h;

	start_handler(&t, &h, fd, UFFDIO_ZEROPAGE);
	CHECK_EQ(page[100], 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	/* Mapped now: filling it again is EEXIST, reported in the result field too. */
	struct uffdio_zeropage z = { .range = { (unsigned long)page, PAGE } };
	CHECK_ERR(EEXIST, ioctl(fd, UFFDIO_ZEROPAGE, &z));
	CHECK_EQ(z.zeropage, (long long)-EEXIST);
	static char source[PAGE];
	struct uffdio_copy c = { .dst = (unsigned long)page,
				 .src = (unsigned long)source,
				 .len = PAGE };
	CHECK_ERR(EEXIST, ioctl(fd, UFFDIO_COPY, &c));
	page[0] = 1; /* the zero page is copied on write as usual */
	CHECK_EQ(page[0], 1);
	close(fd);
}

TEST(userfaultfd_api_and_range_errors)
{
	char *page = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);
	int fd = new_uffd(O_NONBLOCK);
	struct uffd_msg msg;

	CHECK(fd >= 0);
	CHECK_ERR(EINVAL, new_uffd(O_RDWR));
	CHECK_ERR(EINVAL, read(fd, &msg, sizeof(msg))); /* before UFFDIO_API */
	struct uffdio_register reg = { .range = { (unsigned long)page, PAGE },
				       .mode = UFFDIO_REGISTER_MODE_MISSING };
	CHECK_ERR(EINVAL, ioctl(fd, UFFDIO_REGISTER, &reg));
	struct uffdio_api api = { .api = 0x55 };
	CHECK_ERR(EINVAL, ioctl(fd, UFFDIO_API, &api));
	api.api = UFFD_API;
	CHECK_OK(ioctl(fd, UFFDIO_API, &api));
	CHECK(api.ioctls & (1ull << _UFFDIO_REGISTER));
	CHECK_ERR(EINVAL, ioctl(fd, UFFDIO_API, &api)); /* once only */
	CHECK_ERR(EAGAIN, read(fd, &msg, sizeof(msg)));
	CHECK_ERR(EINVAL, read(fd, &msg, sizeof(msg) - 1));
	reg.range.start++;
	CHECK_ERR(EINVAL, ioctl(fd, UFFDIO_REGISTER, &reg));
	reg.range.start--;
	reg.mode = 0;
	CHECK_ERR(EINVAL, ioctl(fd, UFFDIO_REGISTER, &reg));
	reg.mode = UFFDIO_REGISTER_MODE_MINOR; /* anonymous memory has no minor faults */
	CHECK_ERR(EINVAL, ioctl(fd, UFFDIO_REGISTER, &reg));
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	CHECK_OK(ioctl(fd, UFFDIO_REGISTER, &reg));
	/* The second page is not registered: ENOENT; an unaligned range: EINVAL. */
	struct uffdio_zeropage z = { .range = { (unsigned long)page + PAGE, PAGE } };
	CHECK_ERR(ENOENT, ioctl(fd, UFFDIO_ZEROPAGE, &z));
	z.range.len = 100;
	CHECK_ERR(EINVAL, ioctl(fd, UFFDIO_ZEROPAGE, &z));
	struct uffdio_range r = { (unsigned long)page, PAGE };
	CHECK_OK(ioctl(fd, UFFDIO_WAKE, &r));
	CHECK_OK(ioctl(fd, UFFDIO_UNREGISTER, &r));
	CHECK_EQ(page[0], 0); /* unregistered: an ordinary fault */
	close(fd);
}

/* The VmFlags line of the area at addr in /proc/self/smaps. */
static void
vm_flags_of(const void *addr, char *line, size_t size)
{
	static char text[1 << 18];
	char head[32];

	CHECK_OK(read_text_file("/proc/self/smaps", text, sizeof(text)));
	snprintf(head, sizeof(head), "\n%lx-", (unsigned long)addr);
	const char *entry = strstr(text, head);
	CHECK(entry != NULL);
	const char *flags = strstr(entry, "VmFlags:");
	CHECK(flags != NULL);
	snprintf(line, size, "%.*s", (int)strcspn(flags, "\n"), flags);
}

/* A registered area is one of its own, "um" in its smaps VmFlags; unregistered, no more. */
TEST(userfaultfd_smaps_flag)
{
	char *area = map_anon(3 * PAGE, PROT_READ | PROT_WRITE);
	int fd = uffd_on(area + PAGE, UFFDIO_REGISTER_MODE_MISSING, 0, 0);
	char line[256];

	vm_flags_of(area + PAGE, line, sizeof(line));
	if (!strstr(line, " um"))
		fail("registered area: %s", line);
	vm_flags_of(area, line, sizeof(line));
	CHECK(strstr(line, " um") == NULL);
	close(fd); /* unregisters */
	vm_flags_of(area, line, sizeof(line));
	CHECK(strstr(line, " um") == NULL);
}

/*
 * mremap(MREMAP_DONTUNMAP) of a registered page (LTP's mremap07): the pages
 * move, the old place stays registered and empty, so touching it faults to
 * the reader; the new place is not registered.
 */
TEST(userfaultfd_mremap_dontunmap)
{
	int fd;
	char *page = registered_anon(&fd, 0);
	pthread_t t;
	struct handler h;

	start_handler(&t, &h, fd, UFFDIO_ZEROPAGE);
	page[0] = 'A'; /* served with the zero page, then written */
	CHECK_EQ(pthread_join(t, NULL), 0);
	char *moved = mremap(page, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	CHECK(moved != MAP_FAILED);
	CHECK_EQ(moved[0], 'A');
	start_handler(&t, &h, fd, UFFDIO_COPY);
	CHECK_EQ(page[0], 'X');
	CHECK_EQ(pthread_join(t, NULL), 0);
	struct uffdio_zeropage z = { .range = { (unsigned long)moved, PAGE } };
	CHECK_ERR(ENOENT, ioctl(fd, UFFDIO_ZEROPAGE, &z));
	close(fd);
}

/* Closes the userfaultfd once a fault waits on it. */
static void *
close_when_faulted(void *arg)
{
	int fd = *(int *)arg;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	CHECK_EQ(poll(&p, 1, 10000), 1);
	CHECK_OK(close(fd));
	return NULL;
}

TEST(userfaultfd_close_lets_fault_go)
{
	int fd;
	char *page = registered_anon(&fd, 0);
	pthread_t t;

	CHECK_EQ(pthread_create(&t, NULL, close_when_faulted, &fd), 0);
	page[5] = 7; /* waits until the close, then faults in a zeroed page */
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(page[5], 7);
	CHECK_EQ(page[4], 0);
}

/* As nobody: only UFFD_USER_MODE_ONLY descriptors (vm.unprivileged_userfaultfd is 0). */
static void
unprivileged_checks(const char *unused __attribute__((unused)))
{
	CHECK_ERR(EPERM, new_uffd(0));
	int fd = new_uffd(UFFD_USER_MODE_ONLY);
	CHECK(fd >= 0);
	close(fd);
}

TEST(userfaultfd_privilege)
{
	int fd = open("/proc/sys/vm/unprivileged_userfaultfd", O_RDONLY);
	char c = '?';

	CHECK(fd >= 0);
	CHECK_EQ(read(fd, &c, 1), 1L);
	close(fd);
	if (c != '0')
		skip("vm.unprivileged_userfaultfd is not 0 here");
	as_nobody(unprivileged_checks, NULL);
	fd = open("/dev/userfaultfd", O_RDWR);
	if (fd < 0)
		skip("no /dev/userfaultfd");
	int ufd = ioctl(fd, USERFAULTFD_IOC_NEW, O_CLOEXEC);
	CHECK(ufd >= 0);
	CHECK_ERR(EINVAL, ioctl(fd, USERFAULTFD_IOC_NEW, 0x40000000));
	close(ufd);
	close(fd);
}

/* read(2) of a pipe into a registered page: the kernel's own access faults. */
static long
read_pipe_into(char *page)
{
	int p[2];

	CHECK_OK(pipe(p));
	CHECK_EQ(write(p[1], "kernel", 6), 6L);
	long n = read(p[0], page + 10, 6);
	close(p[0]);
	close(p[1]);
	return n;
}

TEST(userfaultfd_kernel_access)
{
	int fd;
	char *page = registered_anon(&fd, 0);
	pthread_t t;
	struct handler h;

	start_handler(&t, &h, fd, UFFDIO_COPY);
	CHECK_EQ(read_pipe_into(page), 6L); /* waited for the handler */
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK(memcmp(page + 8, "XXkernelXX", 10) == 0);
	close(fd);
	/* User mode only: the kernel's access fails at once. */
	page = registered_anon(&fd, UFFD_USER_MODE_ONLY);
	CHECK_EQ(read_pipe_into(page), -1L);
	CHECK_EQ(errno, EFAULT);
	close(fd);
}

static char *volatile unanswered_page;

/* Touches a registered page nobody answers. */
static void
touch_unanswered(void)
{
	unanswered_page[0] = 1;
}

/* Registers a page with UFFD_FEATURE_SIGBUS and touches it: a SIGBUS, no message. */
static void
fault_with_sigbus_feature(void)
{
	unanswered_page = map_anon(PAGE, PROT_READ | PROT_WRITE);
	uffd_on(unanswered_page, UFFDIO_REGISTER_MODE_MISSING, UFFD_FEATURE_SIGBUS, 0);
	touch_unanswered();
}

TEST(userfaultfd_sigbus_feature)
{
	expect_killed(fault_with_sigbus_feature, SIGBUS, "a fault with UFFD_FEATURE_SIGBUS");
}

/* A fault nobody answers waits; SIGKILL ends the wait (and the process). */
TEST(userfaultfd_kill_ends_wait)
{
	pid_t pid = xfork();

	if (pid == 0) {
		int fd;
		unanswered_page = registered_anon(&fd, 0);
		touch_unanswered();
		_exit(3);
	}
	wait_until_asleep(pid);
	CHECK_OK(kill(pid, SIGKILL));
	expect_signaled(wait_status(pid), SIGKILL, "the child waiting in a fault");
}

/* Answers one minor fault: the cached page changed, then mapped with UFFDIO_CONTINUE. */
static void *
continue_one(void *arg)
{
	struct handler *h = arg;

	h->msg = next_fault(h->fd);
	int memfd = (int)h->ioctl;
	CHECK_EQ(pwrite(memfd, "Z", 1, 0), 1L);
	struct uffdio_continue c = { .range = { h->msg.arg.pagefault.address & ~(PAGE - 1),
						PAGE } };
	CHECK_OK(ioctl(h->fd, UFFDIO_CONTINUE, &c));
	CHECK_EQ(c.mapped, (long long)PAGE);
	return NULL;
}

TEST(userfaultfd_minor_continue)
{
	int memfd = memfd_create("uffd-minor", MFD_CLOEXEC);

	CHECK(memfd >= 0);
	CHECK_OK(ftruncate(memfd, PAGE));
	CHECK_EQ(pwrite(memfd, "A", 1, 0), 1L);
	char *page = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, memfd, 0);
	CHECK(page != MAP_FAILED);
	CHECK_EQ(page[0], 'A');
	struct uffdio_api api = { .api = UFFD_API };
	int fd = new_uffd(0);
	CHECK_OK(ioctl(fd, UFFDIO_API, &api));
	if (!(api.features & UFFD_FEATURE_MINOR_SHMEM))
		skip("no minor faults of shmem");
	close(fd);
	fd = uffd_on(page, UFFDIO_REGISTER_MODE_MINOR, UFFD_FEATURE_MINOR_SHMEM, 0);
	CHECK_OK(madvise(page, PAGE, MADV_DONTNEED)); /* the entry goes, the cached page stays */
	pthread_t t;
	struct handler h = { .fd = fd, .ioctl = (unsigned long long)memfd };
	CHECK_EQ(pthread_create(&t, NULL, continue_one, &h), 0);
	CHECK_EQ(page[0], 'Z');
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK(h.msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_MINOR);
	close(fd);
	close(memfd);
}
