/*
 * io_uring.c - usertests: io_uring as Linux 6.1 has it. The rings'
 * layout io_uring_setup reports (and its sizes and refusals), the rings
 * shared through mmap, NOP, vectored and plain reads and writes of a
 * file, registered buffers and files, the probe, an eventfd told of each
 * completion, the overflow list of a full completion ring, a poll on a
 * pipe and a read of an empty pipe that complete once data comes, linked
 * requests, OPENAT, STATX and CLOSE, a wait with a timeout, and a ring
 * closed with requests still waiting.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "uapi/io_uring.h"
#include "uapi/statx.h"

/* A ring as a program sees it: the fd, the parameters, the three mappings. */
struct ring {
	int fd;
	struct io_uring_params p;
	char *sq, *cq;
	struct io_uring_sqe *sqes;
	size_t sq_len, cq_len;
};

static long
uring_setup(unsigned entries, struct io_uring_params *p)
{
	return syscall(SYS_io_uring_setup, entries, p);
}

static long
uring_enter(int fd, unsigned submit, unsigned min, unsigned flags, const sigset_t *sig)
{
	return syscall(SYS_io_uring_enter, fd, submit, min, flags, sig, sig ? _NSIG / 8 : 0);
}

static long
uring_register(int fd, unsigned op, const void *arg, unsigned nr)
{
	return syscall(SYS_io_uring_register, fd, op, arg, nr);
}

static unsigned *
sq_word(struct ring *r, unsigned off)
{
	return (unsigned *)(r->sq + off);
}

static unsigned *
cq_word(struct ring *r, unsigned off)
{
	return (unsigned *)(r->cq + off);
}

static void *
map_region(struct ring *r, size_t len, off_t off)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, off);

	if (p == MAP_FAILED)
		fail("mmap of the ring at %#lx: %s", (unsigned long)off, errname(errno));
	return p;
}

/* A ring of entries with flags (and cq_entries for IORING_SETUP_CQSIZE), mapped. */
static void
ring_open(struct ring *r, unsigned entries, unsigned flags, unsigned cq_entries)
{
	memset(r, 0, sizeof(*r));
	r->p.flags = flags;
	r->p.cq_entries = cq_entries;
	r->fd = (int)CHECK_OK(uring_setup(entries, &r->p));
	r->sq_len = r->p.sq_off.array + r->p.sq_entries * sizeof(unsigned);
	r->cq_len = r->p.cq_off.cqes + r->p.cq_entries * sizeof(struct io_uring_cqe);
	r->sq = map_region(r, r->sq_len, IORING_OFF_SQ_RING);
	r->cq = map_region(r, r->cq_len, IORING_OFF_CQ_RING);
	r->sqes = map_region(r, r->p.sq_entries * sizeof(struct io_uring_sqe), IORING_OFF_SQES);
}

static void
ring_close(struct ring *r)
{
	munmap(r->sq, r->sq_len);
	munmap(r->cq, r->cq_len);
	munmap(r->sqes, r->p.sq_entries * sizeof(struct io_uring_sqe));
	CHECK_OK(close(r->fd));
}

static void
close_pipe(int p[2])
{
	close(p[0]);
	close(p[1]);
}

/* The next free entry, zeroed and queued (the tail moves); the caller fills it in. */
static struct io_uring_sqe *
sqe_next(struct ring *r)
{
	unsigned *tail = sq_word(r, r->p.sq_off.tail), mask = *sq_word(r, r->p.sq_off.ring_mask);
	unsigned t = *tail, idx = t & mask;
	struct io_uring_sqe *sqe = &r->sqes[idx];

	memset(sqe, 0, sizeof(*sqe));
	sq_word(r, r->p.sq_off.array)[idx] = idx;
	__atomic_store_n(tail, t + 1, __ATOMIC_RELEASE);
	return sqe;
}

static struct io_uring_sqe *
sqe_prep(struct ring *r, int op, int fd, const void *addr, unsigned len, uint64_t off,
	 uint64_t user_data)
{
	struct io_uring_sqe *sqe = sqe_next(r);

	sqe->opcode = (unsigned char)op;
	sqe->fd = fd;
	sqe->addr = (uintptr_t)addr;
	sqe->len = len;
	sqe->off = off;
	sqe->user_data = user_data;
	return sqe;
}

static unsigned
cq_ready(struct ring *r)
{
	return __atomic_load_n(cq_word(r, r->p.cq_off.tail), __ATOMIC_ACQUIRE) -
	       *cq_word(r, r->p.cq_off.head);
}

/* Takes the next completion, which must be there. */
static struct io_uring_cqe
cqe_take(struct ring *r)
{
	unsigned *head = cq_word(r, r->p.cq_off.head);

	if (!cq_ready(r))
		fail("no completion in the ring");
	struct io_uring_cqe *cqes = (void *)(r->cq + r->p.cq_off.cqes);
	struct io_uring_cqe c = cqes[*head & *cq_word(r, r->p.cq_off.ring_mask)];
	__atomic_store_n(head, *head + 1, __ATOMIC_RELEASE);
	return c;
}

/* Submits what is queued, waits for one completion and takes it: its result. */
static int
submit_wait_one(struct ring *r, uint64_t want_user_data)
{
	CHECK_EQ(uring_enter(r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL), 1);
	struct io_uring_cqe c = cqe_take(r);
	CHECK_EQ(c.user_data, want_user_data);
	return c.res;
}

TEST(io_uring_setup_layout)
{
	struct ring r;

	ring_open(&r, 3, 0, 0);
	CHECK_EQ(r.p.sq_entries, 4u);
	CHECK_EQ(r.p.cq_entries, 8u);
	/* Linux 6.1's struct io_rings: the words packed, the CQEs on the next cache line. */
	CHECK_EQ(r.p.sq_off.head, 0u);
	CHECK_EQ(r.p.sq_off.tail, 4u);
	CHECK_EQ(r.p.cq_off.head, 8u);
	CHECK_EQ(r.p.cq_off.tail, 12u);
	CHECK_EQ(r.p.sq_off.ring_mask, 16u);
	CHECK_EQ(r.p.cq_off.ring_mask, 20u);
	CHECK_EQ(r.p.sq_off.ring_entries, 24u);
	CHECK_EQ(r.p.cq_off.ring_entries, 28u);
	CHECK_EQ(r.p.sq_off.dropped, 32u);
	CHECK_EQ(r.p.sq_off.flags, 36u);
	CHECK_EQ(r.p.cq_off.flags, 40u);
	CHECK_EQ(r.p.cq_off.overflow, 44u);
	CHECK_EQ(r.p.cq_off.cqes, 64u);
	CHECK_EQ(r.p.sq_off.array, 64u + 8 * 16);
	unsigned need = IORING_FEAT_SINGLE_MMAP | IORING_FEAT_NODROP | IORING_FEAT_SUBMIT_STABLE;
	CHECK_EQ(r.p.features & need, need);
	CHECK_EQ(*sq_word(&r, r.p.sq_off.ring_mask), 3u);
	CHECK_EQ(*sq_word(&r, r.p.sq_off.ring_entries), 4u);
	CHECK_EQ(*cq_word(&r, r.p.cq_off.ring_mask), 7u);
	CHECK_EQ(*cq_word(&r, r.p.cq_off.ring_entries), 8u);
	/* One region behind both ring offsets (IORING_FEAT_SINGLE_MMAP). */
	*cq_word(&r, r.p.cq_off.head) = 5;
	CHECK_EQ(*sq_word(&r, r.p.cq_off.head), 5u);
	*cq_word(&r, r.p.cq_off.head) = 0;
	CHECK_EQ(fcntl(r.fd, F_GETFD), FD_CLOEXEC);
	char link[64], target[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", r.fd);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	CHECK(n > 0);
	target[n] = '\0';
	CHECK(strcmp(target, "anon_inode:[io_uring]") == 0);
	ring_close(&r);
}

TEST(io_uring_setup_sizes)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = 5;
	int fd = (int)CHECK_OK(uring_setup(2, &p));
	CHECK_EQ(p.sq_entries, 2u);
	CHECK_EQ(p.cq_entries, 8u);
	close(fd);
	p = (struct io_uring_params){ .flags = IORING_SETUP_CQSIZE, .cq_entries = 2 };
	CHECK_ERR(EINVAL, uring_setup(4, &p)); /* fewer completions than submissions */
	p = (struct io_uring_params){ .flags = IORING_SETUP_CQSIZE };
	CHECK_ERR(EINVAL, uring_setup(4, &p));
	p = (struct io_uring_params){ 0 };
	CHECK_ERR(EINVAL, uring_setup(65536, &p));
	p = (struct io_uring_params){ .flags = IORING_SETUP_CLAMP };
	fd = (int)CHECK_OK(uring_setup(65536, &p));
	CHECK_EQ(p.sq_entries, 32768u);
	CHECK_EQ(p.cq_entries, 65536u);
	close(fd);
}

TEST(io_uring_bad_arguments)
{
	struct io_uring_params p = { 0 };
	int pipefd[2];

	CHECK_ERR(EFAULT, uring_setup(1, NULL));
	CHECK_ERR(EINVAL, uring_setup(0, &p));
	p.flags = 1u << 31;
	CHECK_ERR(EINVAL, uring_setup(1, &p));
	p = (struct io_uring_params){ .resv = { 1 } };
	CHECK_ERR(EINVAL, uring_setup(1, &p));
	CHECK_OK(pipe(pipefd));
	CHECK_ERR(EBADF, uring_enter(-1, 0, 0, 0, NULL));
	CHECK_ERR(EOPNOTSUPP, uring_enter(pipefd[0], 0, 0, 0, NULL));
	CHECK_ERR(EOPNOTSUPP, uring_register(pipefd[0], IORING_REGISTER_PROBE, NULL, 0));

	struct ring r;
	ring_open(&r, 4, 0, 0);
	CHECK_ERR(EINVAL, uring_enter(r.fd, 0, 0, 1u << 30, NULL));
	CHECK_ERR(EINVAL, uring_register(r.fd, 200, NULL, 0));
	CHECK_ERR(ENXIO, uring_register(r.fd, IORING_UNREGISTER_BUFFERS, NULL, 0));
	CHECK_ERR(ENXIO, uring_register(r.fd, IORING_UNREGISTER_FILES, NULL, 0));
	CHECK_ERR(ENXIO, uring_register(r.fd, IORING_UNREGISTER_EVENTFD, NULL, 0));
	int fds[2] = { pipefd[0], 1000 };
	CHECK_ERR(EBADF, uring_register(r.fd, IORING_REGISTER_FILES, fds, 2));
	fds[1] = r.fd; /* a ring may not hold itself */
	CHECK_ERR(EBADF, uring_register(r.fd, IORING_REGISTER_FILES, fds, 2));
	CHECK_ERR(EINVAL, uring_register(r.fd, IORING_REGISTER_EVENTFD, &pipefd[0], 1));
	sigset_t set;
	sigemptyset(&set);
	CHECK_ERR(EINVAL, syscall(SYS_io_uring_enter, r.fd, 0, 1, IORING_ENTER_GETEVENTS, &set, 4));

	char buf[8];
	sqe_prep(&r, IORING_OP_READ, 1000, buf, sizeof(buf), 0, 1);
	CHECK_EQ(submit_wait_one(&r, 1), -EBADF);
	sqe_prep(&r, IORING_OP_READ, 7, buf, sizeof(buf), 0, 2)->flags = IOSQE_FIXED_FILE;
	CHECK_EQ(submit_wait_one(&r, 2), -EBADF); /* no registered files */
	sqe_prep(&r, 200, -1, NULL, 0, 0, 3);
	CHECK_EQ(submit_wait_one(&r, 3), -EINVAL);
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 4)->flags = 0x80;
	CHECK_EQ(submit_wait_one(&r, 4), -EINVAL);
	sqe_prep(&r, IORING_OP_READ, pipefd[1], buf, sizeof(buf), 0, 5); /* the write end */
	CHECK_EQ(submit_wait_one(&r, 5), -EBADF);
	ring_close(&r);
	close_pipe(pipefd);
}

TEST(io_uring_nop)
{
	struct ring r;

	ring_open(&r, 4, 0, 0);
	CHECK_EQ(uring_enter(r.fd, 0, 0, 0, NULL), 0); /* nothing queued */
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 42);
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 43);
	CHECK_EQ(uring_enter(r.fd, 8, 2, IORING_ENTER_GETEVENTS, NULL), 2);
	CHECK_EQ(*sq_word(&r, r.p.sq_off.head), 2u);
	struct io_uring_cqe c = cqe_take(&r);
	CHECK(c.user_data == 42 && c.res == 0);
	c = cqe_take(&r);
	CHECK(c.user_data == 43 && c.res == 0);
	CHECK_EQ(cq_ready(&r), 0u);
	/* An index past the SQE array is dropped and counted. */
	sqe_next(&r);
	sq_word(&r, r.p.sq_off.array)[2] = 100;
	CHECK_EQ(uring_enter(r.fd, 1, 0, 0, NULL), 0);
	CHECK_EQ(*sq_word(&r, r.p.sq_off.dropped), 1u);
	CHECK_EQ(*sq_word(&r, r.p.sq_off.head), 3u);
	ring_close(&r);
}

TEST(io_uring_readv_writev_file)
{
	struct ring r;
	char a[] = "hello, ", b[] = "io_uring", got1[7], got2[8];
	struct iovec out[2] = { { a, 7 }, { b, 8 } }, in[2] = { { got1, 7 }, { got2, 8 } };
	int fd = create_file("f", "", 0, 0644);

	ring_open(&r, 4, 0, 0);
	sqe_prep(&r, IORING_OP_WRITEV, fd, out, 2, 0, 1);
	CHECK_EQ(submit_wait_one(&r, 1), 15);
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 0); /* at an offset: the file's own stays */
	sqe_prep(&r, IORING_OP_READV, fd, in, 2, 0, 2);
	CHECK_EQ(submit_wait_one(&r, 2), 15);
	CHECK(memcmp(got1, a, 7) == 0 && memcmp(got2, b, 8) == 0);
	/* Offset -1: at the file's offset, which moves (IORING_FEAT_RW_CUR_POS). */
	char one[4] = { 0 };
	sqe_prep(&r, IORING_OP_READ, fd, one, 3, (uint64_t)-1, 3);
	CHECK_EQ(submit_wait_one(&r, 3), 3);
	CHECK(memcmp(one, "hel", 3) == 0);
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 3);
	sqe_prep(&r, IORING_OP_WRITE, fd, "XY", 2, 13, 4);
	CHECK_EQ(submit_wait_one(&r, 4), 2);
	char all[16] = { 0 };
	CHECK_EQ(pread(fd, all, 15, 0), 15);
	CHECK(memcmp(all, "hello, io_uriXY", 15) == 0);
	sqe_prep(&r, IORING_OP_FSYNC, fd, NULL, 0, 0, 5);
	CHECK_EQ(submit_wait_one(&r, 5), 0);
	sqe_prep(&r, IORING_OP_READ, fd, (void *)8, 4, 0, 6);
	CHECK_EQ(submit_wait_one(&r, 6), -EFAULT);
	ring_close(&r);
	close(fd);
}

TEST(io_uring_fixed_buffers_and_files)
{
	struct ring r;
	char *buf = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);
	struct iovec reg = { buf, 2 * PAGE };
	int fd = create_file("f", "", 0, 0644);

	ring_open(&r, 4, 0, 0);
	CHECK_OK(uring_register(r.fd, IORING_REGISTER_BUFFERS, &reg, 1));
	CHECK_ERR(EBUSY, uring_register(r.fd, IORING_REGISTER_BUFFERS, &reg, 1));
	fill_pattern((unsigned char *)buf, PAGE, 7);
	sqe_prep(&r, IORING_OP_WRITE_FIXED, fd, buf, PAGE, 0, 1);
	CHECK_EQ(submit_wait_one(&r, 1), PAGE);
	sqe_prep(&r, IORING_OP_READ_FIXED, fd, buf + PAGE, PAGE, 0, 2);
	CHECK_EQ(submit_wait_one(&r, 2), PAGE);
	CHECK(has_pattern((unsigned char *)buf + PAGE, PAGE, 7));
	sqe_prep(&r, IORING_OP_READ_FIXED, fd, buf + PAGE, PAGE + 1, 0, 3);
	CHECK_EQ(submit_wait_one(&r, 3), -EFAULT); /* past the registered buffer */
	sqe_prep(&r, IORING_OP_READ_FIXED, fd, buf, 16, 0, 4)->buf_index = 1;
	CHECK_EQ(submit_wait_one(&r, 4), -EFAULT); /* no buffer 1 */
	CHECK_ERR(EINVAL, uring_register(r.fd, IORING_UNREGISTER_BUFFERS, &reg, 1));
	CHECK_OK(uring_register(r.fd, IORING_UNREGISTER_BUFFERS, NULL, 0));
	sqe_prep(&r, IORING_OP_READ_FIXED, fd, buf, 16, 0, 5);
	CHECK_EQ(submit_wait_one(&r, 5), -EFAULT);

	/* A registered file stays the ring's after its fd is closed. */
	int files[2] = { -1, fd };
	CHECK_OK(uring_register(r.fd, IORING_REGISTER_FILES, files, 2));
	CHECK_ERR(EBUSY, uring_register(r.fd, IORING_REGISTER_FILES, files, 2));
	CHECK_OK(close(fd));
	char got[8] = { 0 };
	sqe_prep(&r, IORING_OP_READ, 1, got, 8, 0, 6)->flags = IOSQE_FIXED_FILE;
	CHECK_EQ(submit_wait_one(&r, 6), 8);
	CHECK(memcmp(got, buf, 8) == 0);
	sqe_prep(&r, IORING_OP_READ, 0, got, 8, 0, 7)->flags = IOSQE_FIXED_FILE;
	CHECK_EQ(submit_wait_one(&r, 7), -EBADF); /* the empty slot */
	CHECK_OK(uring_register(r.fd, IORING_UNREGISTER_FILES, NULL, 0));
	ring_close(&r);
}

TEST(io_uring_probe_and_eventfd)
{
	struct ring r;
	struct {
		struct io_uring_probe p;
		struct io_uring_probe_op ops[64];
	} probe;

	ring_open(&r, 2, 0, 0);
	memset(&probe, 0, sizeof(probe));
	CHECK_OK(uring_register(r.fd, IORING_REGISTER_PROBE, &probe, 64));
	CHECK(probe.p.last_op >= IORING_OP_WRITE);
	CHECK(probe.p.ops_len >= IORING_OP_WRITE + 1);
	CHECK(probe.ops[IORING_OP_NOP].flags & IO_URING_OP_SUPPORTED);
	CHECK(probe.ops[IORING_OP_READV].flags & IO_URING_OP_SUPPORTED);
	CHECK(probe.ops[IORING_OP_POLL_ADD].flags & IO_URING_OP_SUPPORTED);
	CHECK_EQ(probe.ops[IORING_OP_WRITE].op, IORING_OP_WRITE);
	probe.p.resv = 1;
	CHECK_ERR(EINVAL, uring_register(r.fd, IORING_REGISTER_PROBE, &probe, 64));

	int efd = (int)CHECK_OK(eventfd(0, EFD_NONBLOCK));
	CHECK_ERR(EINVAL, uring_register(r.fd, IORING_REGISTER_EVENTFD, &efd, 2));
	CHECK_OK(uring_register(r.fd, IORING_REGISTER_EVENTFD, &efd, 1));
	CHECK_ERR(EBUSY, uring_register(r.fd, IORING_REGISTER_EVENTFD, &efd, 1));
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 1);
	CHECK_EQ(submit_wait_one(&r, 1), 0);
	uint64_t count = 0;
	CHECK_EQ(read(efd, &count, sizeof(count)), sizeof(count));
	CHECK_EQ(count, 1u);
	CHECK_OK(uring_register(r.fd, IORING_UNREGISTER_EVENTFD, NULL, 0));
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	CHECK_EQ(submit_wait_one(&r, 2), 0);
	CHECK_ERR(EAGAIN, read(efd, &count, sizeof(count)));
	close(efd);
	ring_close(&r);
}

TEST(io_uring_cq_overflow)
{
	struct ring r;

	ring_open(&r, 1, 0, 0); /* two completion entries */
	CHECK_EQ(r.p.cq_entries, 2u);
	for (int i = 0; i < 4; i++) {
		sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, (uint64_t)i);
		CHECK_EQ(uring_enter(r.fd, 1, 0, 0, NULL), 1);
	}
	CHECK_EQ(cq_ready(&r), 2u);
	CHECK(*sq_word(&r, r.p.sq_off.flags) & IORING_SQ_CQ_OVERFLOW);
	CHECK_EQ(*cq_word(&r, r.p.cq_off.overflow), 0u); /* kept, not dropped */
	CHECK_EQ(cqe_take(&r).user_data, 0u);
	CHECK_EQ(cqe_take(&r).user_data, 1u);
	CHECK_EQ(uring_enter(r.fd, 0, 2, IORING_ENTER_GETEVENTS, NULL), 0);
	CHECK_EQ(cqe_take(&r).user_data, 2u);
	CHECK_EQ(cqe_take(&r).user_data, 3u);
	CHECK(!(*sq_word(&r, r.p.sq_off.flags) & IORING_SQ_CQ_OVERFLOW));
	ring_close(&r);
}

TEST(io_uring_poll_pipe)
{
	struct ring r;
	int p[2];

	CHECK_OK(pipe(p));
	ring_open(&r, 4, 0, 0);
	sqe_prep(&r, IORING_OP_POLL_ADD, p[0], NULL, 0, 0, 1)->poll32_events = POLLIN;
	CHECK_EQ(uring_enter(r.fd, 1, 0, 0, NULL), 1);
	CHECK_EQ(cq_ready(&r), 0u); /* armed: nothing to read yet */
	CHECK_EQ(write(p[1], "x", 1), 1);
	CHECK_EQ(uring_enter(r.fd, 0, 1, IORING_ENTER_GETEVENTS, NULL), 0);
	struct io_uring_cqe c = cqe_take(&r);
	CHECK_EQ(c.user_data, 1u);
	CHECK(c.res & POLLIN);

	/* POLL_REMOVE: the armed poll completes with ECANCELED, the remove with 0. */
	sqe_prep(&r, IORING_OP_POLL_ADD, p[1], NULL, 0, 0, 2)->poll32_events = POLLPRI;
	CHECK_EQ(uring_enter(r.fd, 1, 0, 0, NULL), 1);
	CHECK_EQ(cq_ready(&r), 0u);
	sqe_prep(&r, IORING_OP_POLL_REMOVE, -1, (void *)2, 0, 0, 3);
	CHECK_EQ(uring_enter(r.fd, 1, 2, IORING_ENTER_GETEVENTS, NULL), 1);
	for (int i = 0; i < 2; i++) {
		c = cqe_take(&r);
		CHECK_EQ(c.res, c.user_data == 2 ? -ECANCELED : 0);
	}
	sqe_prep(&r, IORING_OP_POLL_REMOVE, -1, (void *)2, 0, 0, 4);
	CHECK_EQ(submit_wait_one(&r, 4), -ENOENT);
	ring_close(&r);
	close_pipe(p);
}

TEST(io_uring_read_completes_later)
{
	struct ring r;
	int p[2];
	char got[4] = { 0 };

	CHECK_OK(pipe(p));
	ring_open(&r, 4, 0, 0);
	sqe_prep(&r, IORING_OP_READ, p[0], got, sizeof(got), 0, 9);
	CHECK_EQ(uring_enter(r.fd, 1, 0, 0, NULL), 1); /* does not wait for the data */
	CHECK_EQ(cq_ready(&r), 0u);
	pid_t child = write_later(p[1]);
	CHECK_EQ(uring_enter(r.fd, 0, 1, IORING_ENTER_GETEVENTS, NULL), 0);
	struct io_uring_cqe c = cqe_take(&r);
	CHECK_EQ(c.user_data, 9u);
	CHECK_EQ(c.res, 1);
	CHECK_EQ(got[0], 'w');
	expect_exit(child, 0, "the writer");
	ring_close(&r);
	close_pipe(p);
}

/* Takes want completions, each res[] by its user_data (1 to n). */
static void
take_results(struct ring *r, int *res, unsigned want)
{
	CHECK_EQ(cq_ready(r), want);
	for (unsigned i = 0; i < want; i++) {
		struct io_uring_cqe c = cqe_take(r);
		CHECK(c.user_data >= 1 && c.user_data <= want);
		res[c.user_data - 1] = c.res;
	}
}

TEST(io_uring_linked_requests)
{
	struct ring r;
	int res[3], p[2];
	char got[16] = { 0 };
	int fd = create_file("f", "12345", 5, 0644);

	ring_open(&r, 8, 0, 0);
	/* A chain runs in order: the read sees the write before it. */
	sqe_prep(&r, IORING_OP_WRITE, fd, "ab", 2, 0, 1)->flags = IOSQE_IO_LINK;
	sqe_prep(&r, IORING_OP_READ, fd, got, 5, 0, 2)->flags = IOSQE_IO_LINK;
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 3);
	CHECK_EQ(uring_enter(r.fd, 3, 3, IORING_ENTER_GETEVENTS, NULL), 3);
	take_results(&r, res, 3);
	CHECK(res[0] == 2 && res[1] == 5 && res[2] == 0);
	CHECK(memcmp(got, "ab345", 5) == 0);
	/* A failure cancels the rest of the chain; a short read is one. */
	sqe_prep(&r, IORING_OP_READ, 1000, got, 5, 0, 1)->flags = IOSQE_IO_LINK;
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2)->flags = IOSQE_IO_LINK;
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 3);
	CHECK_EQ(uring_enter(r.fd, 3, 3, IORING_ENTER_GETEVENTS, NULL), 3);
	take_results(&r, res, 3);
	CHECK(res[0] == -EBADF && res[1] == -ECANCELED && res[2] == -ECANCELED);
	sqe_prep(&r, IORING_OP_READ, fd, got, 16, 0, 1)->flags = IOSQE_IO_LINK;
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	CHECK_EQ(uring_enter(r.fd, 2, 2, IORING_ENTER_GETEVENTS, NULL), 2);
	take_results(&r, res, 2);
	CHECK(res[0] == 5 && res[1] == -ECANCELED);
	/* A hard link goes on after a failure. */
	sqe_prep(&r, IORING_OP_READ, 1000, got, 5, 0, 1)->flags = IOSQE_IO_HARDLINK;
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	CHECK_EQ(uring_enter(r.fd, 2, 2, IORING_ENTER_GETEVENTS, NULL), 2);
	take_results(&r, res, 2);
	CHECK(res[0] == -EBADF && res[1] == 0);
	/* A chain behind a read that waits for its pipe waits with it. */
	CHECK_OK(pipe(p));
	sqe_prep(&r, IORING_OP_READ, p[0], got, 1, 0, 1)->flags = IOSQE_IO_LINK;
	sqe_prep(&r, IORING_OP_WRITE, fd, got, 1, 4, 2);
	CHECK_EQ(uring_enter(r.fd, 2, 0, 0, NULL), 2);
	CHECK_EQ(cq_ready(&r), 0u);
	CHECK_EQ(write(p[1], "Z", 1), 1);
	CHECK_EQ(uring_enter(r.fd, 0, 2, IORING_ENTER_GETEVENTS, NULL), 0);
	take_results(&r, res, 2);
	CHECK(res[0] == 1 && res[1] == 1);
	CHECK_EQ(pread(fd, got, 5, 0), 5);
	CHECK(memcmp(got, "ab34Z", 5) == 0);
	/* IOSQE_CQE_SKIP_SUCCESS: no completion for a success. */
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 1)->flags = IOSQE_CQE_SKIP_SUCCESS;
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 2);
	CHECK_EQ(uring_enter(r.fd, 2, 1, IORING_ENTER_GETEVENTS, NULL), 2);
	CHECK_EQ(cqe_take(&r).user_data, 2u);
	CHECK_EQ(cq_ready(&r), 0u);
	ring_close(&r);
	close_pipe(p);
	close(fd);
}

TEST(io_uring_openat_statx_close)
{
	struct ring r;
	struct kernel_statx sx;
	make_file("f", "12345", 5);

	ring_open(&r, 4, 0, 0);
	struct io_uring_sqe *sqe = sqe_prep(&r, IORING_OP_OPENAT, AT_FDCWD, "f", 0, 0, 1);
	sqe->open_flags = O_RDONLY;
	int fd = submit_wait_one(&r, 1);
	CHECK(fd >= 0);
	char got[5];
	CHECK_EQ(read(fd, got, 5), 5);
	sqe = sqe_prep(&r, IORING_OP_STATX, AT_FDCWD, "f", STATX_SIZE, 0, 2);
	sqe->addr2 = (uintptr_t)&sx;
	CHECK_EQ(submit_wait_one(&r, 2), 0);
	CHECK_EQ(sx.stx_size, 5u);
	sqe_prep(&r, IORING_OP_OPENAT, AT_FDCWD, "missing", 0, 0, 3);
	CHECK_EQ(submit_wait_one(&r, 3), -ENOENT);
	sqe_prep(&r, IORING_OP_CLOSE, fd, NULL, 0, 0, 4);
	CHECK_EQ(submit_wait_one(&r, 4), 0);
	CHECK_ERR(EBADF, fcntl(fd, F_GETFD));
	sqe_prep(&r, IORING_OP_CLOSE, fd, NULL, 0, 0, 5);
	CHECK_EQ(submit_wait_one(&r, 5), -EBADF);
	sqe_prep(&r, IORING_OP_CLOSE, r.fd, NULL, 0, 0, 6);
	CHECK_EQ(submit_wait_one(&r, 6), -EBADF); /* not a ring */
	ring_close(&r);
}

static void
on_alarm(int sig)
{
	(void)sig;
}

TEST(io_uring_wait_interrupted)
{
	struct ring r;
	struct sigaction sa = { .sa_handler = on_alarm };

	ring_open(&r, 2, 0, 0);
	CHECK_OK(sigaction(SIGALRM, &sa, NULL));
	ualarm(50000, 0);
	CHECK_ERR(EINTR, uring_enter(r.fd, 0, 1, IORING_ENTER_GETEVENTS, NULL));
	ring_close(&r);
}

TEST(io_uring_wait_timeout)
{
	struct ring r;
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	struct io_uring_getevents_arg arg = { .ts = (uintptr_t)&ts };
	const unsigned flags = IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG;
	int p[2];
	char got[1];

	ring_open(&r, 4, 0, 0);
	CHECK(r.p.features & IORING_FEAT_EXT_ARG);
	long long t0 = mono_ns();
	CHECK_ERR(ETIME, syscall(SYS_io_uring_enter, r.fd, 0, 1, flags, &arg, sizeof(arg)));
	CHECK(mono_ns() - t0 >= 40 * 1000 * 1000);
	CHECK_ERR(EINVAL, syscall(SYS_io_uring_enter, r.fd, 0, 1, flags, &arg, sizeof(arg) - 1));
	sqe_prep(&r, IORING_OP_NOP, -1, NULL, 0, 0, 1);
	CHECK_EQ(syscall(SYS_io_uring_enter, r.fd, 1, 1, flags, &arg, sizeof(arg)), 1);
	CHECK_EQ(cqe_take(&r).user_data, 1u);
	/* Fewer entries than to_submit: no wait, as Linux (the read stays armed). */
	CHECK_OK(pipe(p));
	sqe_prep(&r, IORING_OP_READ, p[0], got, 1, 0, 2);
	CHECK_EQ(uring_enter(r.fd, 4, 1, IORING_ENTER_GETEVENTS, NULL), 1);
	CHECK_EQ(cq_ready(&r), 0u);
	ring_close(&r);
	close_pipe(p);
}

TEST(io_uring_close_with_pending)
{
	struct ring r;
	int p[2];
	char got[4];

	CHECK_OK(pipe(p));
	signal(SIGPIPE, SIG_IGN);
	ring_open(&r, 4, 0, 0);
	sqe_prep(&r, IORING_OP_READ, p[0], got, sizeof(got), 0, 1);
	sqe_prep(&r, IORING_OP_POLL_ADD, p[0], NULL, 0, 0, 2)->poll32_events = POLLIN;
	CHECK_EQ(uring_enter(r.fd, 2, 0, 0, NULL), 2);
	ring_close(&r);
	CHECK_OK(close(p[0]));
	/* The cancelled requests let go of the read end: the pipe has no reader now. */
	long long deadline = mono_ns() + 2000000000ll;
	while (write(p[1], "x", 1) == 1 && mono_ns() < deadline)
		usleep(1000);
	CHECK_ERR(EPIPE, write(p[1], "x", 1));
	close(p[1]);
}
