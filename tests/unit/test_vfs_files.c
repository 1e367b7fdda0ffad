/*
 * test_vfs_files.c - host tests of open files: open's flags, reading and
 * writing through the page cache (holes, sparse files, truncation, failed
 * copies), offsets, readv/writev, descriptors (dup, fcntl, close-on-exec,
 * table growth), stat, access, devices, and what fs/fs.h gives execve and
 * mmap. Through the system calls themselves (see fs_host.h).
 */
#include "tests/unit/fs_host.h"

static u8 big[3 * 4096 + 100];
static u8 back[sizeof(big)];

static bool
all_zero(const u8 *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static u64
cached_pages(const char *path)
{
	return (u64)stat_of(path).st_blocks / (PAGE_SIZE / 512);
}

UNIT_TEST(write_then_read_back)
{
	char buf[32];
	struct kernel_stat st;

	fs_setup();
	int fd = (int)do_sys_open("/tmp/f", O_CREAT | O_RDWR, 0666);
	CHECK_EQ(fd, 0); /* the lowest free descriptor */
	CHECK_EQ(do_sys_write(fd, "hello, world", 12), 12);
	CHECK_EQ(do_sys_lseek(fd, 0, SEEK_CUR), 12);
	CHECK_EQ(do_sys_read(fd, buf, sizeof(buf)), 0); /* at the end */
	CHECK_EQ(do_sys_lseek(fd, 7, SEEK_SET), 7);
	CHECK_EQ(do_sys_read(fd, buf, sizeof(buf)), 5);
	CHECK(memcmp(buf, "world", 5) == 0);
	CHECK_EQ(do_sys_fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, 12);
	CHECK_EQ(st.st_mode, S_IFREG | 0644); /* umask 022 */
	CHECK_EQ(st.st_nlink, 1);
	CHECK_EQ(st.st_blksize, 4096);
	CHECK_EQ(st.st_blocks, 8);
	CHECK_EQ(st.st_dev, root_sb->dev);
	CHECK_EQ(do_sys_pread64(fd, buf, 5, 0), 5);
	CHECK(memcmp(buf, "hello", 5) == 0);
	CHECK_EQ(do_sys_lseek(fd, 0, SEEK_CUR), 12); /* pread leaves the offset */
	CHECK_EQ(do_sys_pwrite64(fd, "J", 1, 0), 1);
	CHECK_EQ(do_sys_pread64(fd, buf, 12, 0), 12);
	CHECK(memcmp(buf, "Jello, world", 12) == 0);
	CHECK_EQ(do_sys_close(fd), 0);
	CHECK_EQ(do_sys_close(fd), -EBADF);
}

UNIT_TEST(writes_across_pages_holes_read_as_zeros)
{
	fs_setup();
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (u8)(i * 7 + 1);
	int fd = (int)do_sys_open("/big", O_CREAT | O_RDWR, 0644);
	/* Unaligned, spanning four pages, after a hole of two and a half pages. */
	CHECK_EQ(do_sys_pwrite64(fd, (char *)big, sizeof(big), 10000), (long)sizeof(big));
	CHECK_EQ(stat_of("/big").st_size, 10000 + sizeof(big));
	CHECK_EQ(cached_pages("/big"), 4); /* pages 2..5: the hole has none */
	memset(back, 0xff, sizeof(back));
	CHECK_EQ(do_sys_pread64(fd, (char *)back, 10000, 0), 10000);
	CHECK(all_zero(back, 10000));
	CHECK_EQ(do_sys_pread64(fd, (char *)back, sizeof(back), 10000), (long)sizeof(back));
	CHECK(memcmp(back, big, sizeof(big)) == 0);
	CHECK_EQ(do_sys_pread64(fd, (char *)back, sizeof(back), 10000 + sizeof(big) - 10), 10);
	CHECK_EQ(cached_pages("/big"), 4); /* reading a hole makes no page */
}

UNIT_TEST(sparse_file_far_out)
{
	char c = 0;

	fs_setup();
	int fd = (int)do_sys_open("/sparse", O_CREAT | O_RDWR, 0644);
	u64 far = 1ull << 42;
	CHECK_EQ(do_sys_ftruncate(fd, (s64)far), 0);
	CHECK_EQ(stat_of("/sparse").st_size, far);
	CHECK_EQ(cached_pages("/sparse"), 0);
	CHECK_EQ(do_sys_pread64(fd, &c, 1, (s64)far - 1), 1);
	CHECK_EQ(c, 0);
	CHECK_EQ(do_sys_pwrite64(fd, "!", 1, (s64)far), 1);
	CHECK_EQ(stat_of("/sparse").st_size, far + 1);
	CHECK_EQ(cached_pages("/sparse"), 1);
	CHECK_EQ(do_sys_lseek(fd, 0, SEEK_END), (long)(far + 1));
	CHECK_EQ(do_sys_lseek(fd, 5, SEEK_DATA), (long)far); /* the one page written */
	CHECK_EQ(do_sys_lseek(fd, 5, SEEK_HOLE), 5);
	CHECK_EQ(do_sys_lseek(fd, (s64)far, SEEK_HOLE), (long)(far + 1));
	CHECK_EQ(do_sys_lseek(fd, (s64)far + 1, SEEK_DATA), -ENXIO);
	CHECK_EQ(do_sys_lseek(fd, 0, SEEK_SET), 0);
	CHECK_EQ(do_sys_lseek(fd, -1, SEEK_CUR), -EINVAL);
	CHECK_EQ(do_sys_lseek(fd, 0, 5), -EINVAL);
	CHECK_EQ(do_sys_lseek(fd, INT64_MAX, SEEK_END), -EINVAL);
	CHECK_EQ(do_sys_pwrite64(fd, "x", 1, INT64_MAX), -EFBIG);
	CHECK_EQ(do_sys_pwrite64(fd, "xy", 2, INT64_MAX - 1), 1); /* up to the limit */
	CHECK_EQ(do_sys_ftruncate(fd, 0), 0);
	CHECK_EQ(cached_pages("/sparse"), 0);
}

UNIT_TEST(truncate_shrinks_and_grows_with_zeros)
{
	fs_setup();
	u64 pages = free_pages_now();
	memset(big, 'x', sizeof(big));
	int fd = (int)do_sys_open("/t", O_CREAT | O_RDWR, 0644);
	CHECK_EQ(do_sys_write(fd, (char *)big, 8192), 8192);
	CHECK_EQ(cached_pages("/t"), 2);
	CHECK_EQ(do_sys_ftruncate(fd, 100), 0);
	CHECK_EQ(cached_pages("/t"), 1);
	CHECK_EQ(free_pages_now(), pages - 1);
	CHECK_EQ(do_sys_truncate("/t", 8192), 0);
	CHECK_EQ(stat_of("/t").st_size, 8192);
	memset(back, 0xff, sizeof(back));
	CHECK_EQ(do_sys_pread64(fd, (char *)back, 8192, 0), 8192);
	CHECK(memcmp(back, big, 100) == 0);
	CHECK(all_zero(back + 100, 8192 - 100));
	CHECK_EQ(do_sys_ftruncate(fd, -1), -EINVAL);
	CHECK_EQ(do_sys_truncate("/t", -1), -EINVAL);
	CHECK_EQ(do_sys_truncate("/tmp", 0), -EISDIR);
	CHECK_EQ(do_sys_truncate("/dev/null", 0), -EINVAL);
	CHECK_EQ(do_sys_truncate("/nope", 0), -ENOENT);
	int ro = (int)do_sys_open("/t", O_RDONLY, 0);
	CHECK_EQ(do_sys_ftruncate(ro, 0), -EINVAL);
	CHECK_EQ(do_sys_ftruncate(55, 0), -EBADF);
	/* O_TRUNC empties the file, even opened read-only (as Linux does). */
	do_sys_close(do_sys_open("/t", O_RDONLY | O_TRUNC, 0));
	CHECK_EQ(stat_of("/t").st_size, 0);
	do_sys_close(fd);
	do_sys_close(ro);
	do_sys_unlink("/t");
	CHECK_EQ(free_pages_now(), pages);
}

UNIT_TEST(a_failed_copy_leaves_no_garbage_past_the_end)
{
	fs_setup();
	memset(big, 'y', sizeof(big));
	int fd = (int)do_sys_open("/p", O_CREAT | O_RDWR, 0644);
	/* The source's second half "faults": the first half reaches the file, as on Linux. */
	poison_lo = (uintptr_t)big + 2000;
	poison_hi = (uintptr_t)big + sizeof(big);
	CHECK_EQ(do_sys_write(fd, (char *)big + 2000, 10), -EFAULT); /* nothing good: nothing */
	CHECK_EQ(stat_of("/p").st_size, 0);
	CHECK_EQ(do_sys_write(fd, (char *)big, 4000), 2000);
	CHECK_EQ(stat_of("/p").st_size, 2000);
	/* A longer write keeps every byte before the fault, across pages, and says so. */
	poison_lo = (uintptr_t)big + 5000;
	CHECK_EQ(do_sys_pwrite64(fd, (char *)big, 8000, 0), 5000);
	CHECK_EQ(stat_of("/p").st_size, 5000);
	poison_lo = poison_hi = 0;
	CHECK_EQ(do_sys_ftruncate(fd, 8192), 0);
	memset(back, 0xff, sizeof(back));
	CHECK_EQ(do_sys_pread64(fd, (char *)back, 8192, 0), 8192);
	CHECK(memcmp(back, big, 5000) == 0);
	CHECK(all_zero(back + 5000, 8192 - 5000));
	/* Reads into a bad buffer: -EFAULT, or the part before the fault. */
	CHECK_EQ(do_sys_read(fd, BAD_USER_PTR, 10), -EFAULT);
	CHECK_EQ(do_sys_write(fd, BAD_USER_PTR, 10), -EFAULT);
	poison_lo = (uintptr_t)back + 4096;
	poison_hi = (uintptr_t)back + sizeof(back);
	CHECK_EQ(do_sys_pread64(fd, (char *)back, 8192, 0), 4096);
	CHECK_EQ(do_sys_read(fd, (char *)back, (size_t)-1), -EFAULT); /* access_ok fails */
}

/* Writes chunks of the given sizes at offset 0 under copy_nocache=policy: the non-temporal copies made. */
static u64
nocache_copies_for(int policy, size_t size, size_t start)
{
	fs_setup();
	copy_policy = policy;
	nocache_copies = nocache_bytes = 0;
	int fd = (int)do_sys_open("/tmp/nt", O_CREAT | O_RDWR | O_TRUNC, 0666);
	CHECK_EQ(do_sys_pwrite64(fd, (char *)big, size, (s64)start), (s64)size);
	CHECK_EQ(do_sys_pread64(fd, (char *)back, size, (s64)start), (s64)size);
	CHECK(memcmp(back, big, size) == 0);
	CHECK_EQ(do_sys_close(fd), 0);
	copy_policy = COPY_NOCACHE_NEVER;
	return nocache_copies;
}

/*
 * 3255aa2 (docs/seeds.md, seed 004's patch): `large` goes around the cache only for a copy
 * of a whole page; each page's part of a write is one copy, so a page-sized
 * write that straddles two pages is two small copies, both cached.
 */
UNIT_TEST(copy_nocache_large_only_for_whole_pages)
{
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (u8)(i * 7 + 1);
	CHECK_EQ(nocache_copies_for(COPY_NOCACHE_NEVER, 4096, 0), 0);
	CHECK_EQ(nocache_copies_for(COPY_NOCACHE_ALWAYS, 256, 0), 1);
	CHECK_EQ(nocache_copies_for(COPY_NOCACHE_ALWAYS, 4096, 100), 2);
	CHECK_EQ(nocache_copies_for(COPY_NOCACHE_LARGE, 256, 0), 0);
	CHECK_EQ(nocache_copies_for(COPY_NOCACHE_LARGE, 4095, 0), 0);
	CHECK_EQ(nocache_copies_for(COPY_NOCACHE_LARGE, 4096, 100), 0);
	CHECK_EQ(nocache_copies_for(COPY_NOCACHE_LARGE, 4096, 0), 1);
	CHECK_EQ(nocache_bytes, 4096);
	CHECK_EQ(nocache_copies_for(COPY_NOCACHE_LARGE, 3 * 4096 + 100, 0), 3);
}

UNIT_TEST(open_flags_and_errors)
{
	char buf[8];

	fs_setup();
	make_file("/f", "abc");
	CHECK_EQ(do_sys_open("/missing", O_RDONLY, 0), -ENOENT);
	CHECK_EQ(do_sys_open("/f", O_CREAT | O_EXCL | O_WRONLY, 0644), -EEXIST);
	CHECK_EQ(do_sys_open("/f", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	CHECK_EQ(do_sys_open("/f/", O_RDONLY, 0), -ENOTDIR);
	CHECK_EQ(do_sys_open("/tmp", O_WRONLY, 0), -EISDIR);
	CHECK_EQ(do_sys_open("/tmp", O_RDWR, 0), -EISDIR);
	CHECK_EQ(do_sys_open("/tmp", O_CREAT | O_RDONLY, 0644), -EISDIR);
	CHECK_EQ(do_sys_open("/new/", O_CREAT | O_RDWR, 0644), -EISDIR);
	CHECK_EQ(do_sys_open("/", O_CREAT | O_RDWR, 0644), -EISDIR);
	CHECK_EQ(do_sys_open("/x", O_CREAT | O_DIRECTORY | O_RDWR, 0644), -EINVAL);
	CHECK_EQ(do_sys_open("/nodir/x", O_CREAT | O_RDWR, 0644), -ENOENT);
	CHECK_EQ(do_sys_open(BAD_USER_PTR, O_RDONLY, 0), -EFAULT);
	CHECK_EQ(stat_of("/new").st_mode, 0);

	int rd = (int)do_sys_open("/f", O_RDONLY, 0);
	int wr = (int)do_sys_open("/f", O_WRONLY, 0);
	CHECK_EQ(do_sys_write(rd, "z", 1), -EBADF);
	CHECK_EQ(do_sys_read(wr, buf, 1), -EBADF);
	CHECK_EQ(do_sys_read(-1, buf, 1), -EBADF);
	CHECK_EQ(do_sys_read(NR_OPEN + 5, buf, 1), -EBADF);
	CHECK_EQ(do_sys_read(rd, buf, 0), 0);

	/* O_APPEND: every write at the end, whatever the offset, on any descriptor. */
	int ap = (int)do_sys_open("/f", O_WRONLY | O_APPEND, 0);
	CHECK_EQ(do_sys_write(wr, "X", 1), 1); /* at 0 */
	CHECK_EQ(do_sys_write(ap, "de", 2), 2);
	CHECK_EQ(do_sys_lseek(ap, 0, SEEK_SET), 0);
	CHECK_EQ(do_sys_write(ap, "f", 1), 1);
	CHECK_EQ(do_sys_lseek(ap, 0, SEEK_CUR), 6);
	CHECK_EQ(do_sys_pwrite64(ap, "g", 1, 0), 1); /* Linux appends even here */
	CHECK_EQ(do_sys_pread64(rd, buf, 8, 0), 7);
	CHECK(memcmp(buf, "Xbcdefg", 7) == 0);

	/* creat() is open(O_CREAT | O_WRONLY | O_TRUNC). */
	int c = (int)do_sys_creat("/f", 0600);
	CHECK(c >= 0);
	CHECK_EQ(stat_of("/f").st_size, 0);
	CHECK_EQ(stat_of("/f").st_mode, S_IFREG | 0644); /* an existing file keeps its mode */
	CHECK_EQ(do_sys_read(c, buf, 1), -EBADF);
	CHECK_EQ(do_sys_fcntl(c, F_GETFL, 0), O_WRONLY | O_LARGEFILE);
	CHECK_EQ(do_sys_fcntl(ap, F_GETFL, 0), O_WRONLY | O_APPEND | O_LARGEFILE);
}

UNIT_TEST(o_path_and_o_tmpfile)
{
	char buf[64];
	struct kernel_stat st;

	fs_setup();
	make_file("/f", "abc");
	int p = (int)do_sys_open("/f", O_PATH | O_RDWR | O_TRUNC | O_CREAT, 0);
	CHECK(p >= 0);
	CHECK_EQ(stat_of("/f").st_size, 3); /* O_PATH ignores O_TRUNC */
	CHECK_EQ(do_sys_read(p, buf, 1), -EBADF);
	CHECK_EQ(do_sys_write(p, "x", 1), -EBADF);
	CHECK_EQ(do_sys_fstat(p, &st), 0);
	CHECK_EQ(st.st_size, 3);
	CHECK_EQ(do_sys_fcntl(p, F_GETFL, 0) & O_PATH, O_PATH);
	CHECK_EQ(do_sys_fcntl(p, F_SETFL, O_APPEND), -EBADF);
	CHECK_EQ(do_sys_ioctl(p, 0x5413, 0), -EBADF);
	int dp = (int)do_sys_open("/tmp", O_PATH | O_DIRECTORY, 0);
	CHECK_EQ(do_sys_newfstatat(dp, "", &st, AT_EMPTY_PATH), 0);
	CHECK_EQ(st.st_mode, S_IFDIR | 01777);

	int t = (int)do_sys_open("/tmp", __O_TMPFILE | O_DIRECTORY | O_RDWR, 0600);
	CHECK(t >= 0);
	CHECK_EQ(do_sys_write(t, "scratch", 7), 7);
	CHECK_EQ(do_sys_fstat(t, &st), 0);
	CHECK_EQ(st.st_nlink, 0);
	CHECK_EQ(st.st_size, 7);
	CHECK_EQ(st.st_mode, S_IFREG | 0600);
	struct file *f = fd_get(t);
	file_path(f, buf, sizeof(buf));
	CHECK(strncmp(buf, "/tmp/#", 6) == 0 && strstr(buf, " (deleted)"));
	file_put(f);
	int dfd = (int)do_sys_open("/tmp", O_RDONLY | O_DIRECTORY, 0);
	CHECK_EQ(do_sys_getdents64(dfd, buf, sizeof(buf)), 48); /* only "." and ".." */
	CHECK_EQ(do_sys_open("/tmp", __O_TMPFILE | O_DIRECTORY | O_RDONLY, 0600), -EINVAL);
	CHECK_EQ(do_sys_open("/tmp", __O_TMPFILE | O_RDWR, 0600), -EINVAL);
	CHECK_EQ(do_sys_open("/f", __O_TMPFILE | O_DIRECTORY | O_RDWR, 0600), -ENOTDIR);
}

UNIT_TEST(readv_and_writev)
{
	char a[4], b[6], c[16];

	fs_setup();
	int fd = (int)do_sys_open("/v", O_CREAT | O_RDWR, 0644);
	struct kernel_iovec out[] = { { "abc", 3 }, { "", 0 }, { "defghij", 7 } };
	CHECK_EQ(do_sys_writev(fd, out, 3), 10);
	do_sys_lseek(fd, 0, SEEK_SET);
	struct kernel_iovec in[] = { { a, sizeof(a) }, { b, sizeof(b) }, { c, sizeof(c) } };
	CHECK_EQ(do_sys_readv(fd, in, 3), 10);
	CHECK(memcmp(a, "abcd", 4) == 0 && memcmp(b, "efghij", 6) == 0);
	CHECK_EQ(do_sys_readv(fd, in, 0), 0);
	CHECK_EQ(do_sys_readv(fd, in, -1), -EINVAL);
	CHECK_EQ(do_sys_readv(fd, in, UIO_MAXIOV + 1), -EINVAL);
	CHECK_EQ(do_sys_readv(fd, BAD_USER_PTR, 1), -EFAULT);
	struct kernel_iovec huge[] = { { a, INT64_MAX }, { b, 2 } };
	CHECK_EQ(do_sys_readv(fd, huge, 2), -EINVAL);
	CHECK_EQ(do_sys_readv(99, in, 1), -EBADF);
	int ro = (int)do_sys_open("/v", O_RDONLY, 0);
	CHECK_EQ(do_sys_writev(ro, out, 1), -EBADF);
	/* A bad segment after good ones: what was done before it counts. */
	struct kernel_iovec bad[] = { { "12", 2 }, { BAD_USER_PTR, 4 } };
	CHECK_EQ(do_sys_writev(fd, bad, 2), 2);
	CHECK_EQ(stat_of("/v").st_size, 12);
}

UNIT_TEST(descriptors_dup_and_fcntl)
{
	char buf[8];

	fs_setup();
	make_file("/f", "0123456789");
	int fd = (int)do_sys_open("/f", O_RDWR, 0);
	CHECK_EQ(fd, 0);
	CHECK_EQ(do_sys_dup(fd), 1);
	CHECK_EQ(do_sys_read(0, buf, 3), 3);
	CHECK_EQ(do_sys_lseek(1, 0, SEEK_CUR), 3); /* one open file, one offset */
	CHECK_EQ(do_sys_dup2(0, 7), 7);
	CHECK_EQ(do_sys_dup2(7, 7), 7);
	CHECK_EQ(do_sys_dup2(8, 8), -EBADF);
	CHECK_EQ(do_sys_dup2(0, NR_OPEN), -EBADF);
	CHECK_EQ(do_sys_dup2(0, -1), -EBADF);
	CHECK_EQ(do_sys_dup2(9, 3), -EBADF);
	CHECK_EQ(do_sys_dup3(0, 0, 0), -EINVAL);
	CHECK_EQ(do_sys_dup3(0, 3, O_NONBLOCK), -EINVAL);
	CHECK_EQ(do_sys_dup3(0, 3, O_CLOEXEC), 3);
	CHECK_EQ(do_sys_fcntl(3, F_GETFD, 0), FD_CLOEXEC);
	CHECK_EQ(do_sys_fcntl(7, F_GETFD, 0), 0);
	CHECK_EQ(do_sys_fcntl(0, F_DUPFD, 5), 5);
	CHECK_EQ(do_sys_fcntl(0, F_DUPFD, 5), 6);
	CHECK_EQ(do_sys_fcntl(0, F_DUPFD_CLOEXEC, 2), 2);
	CHECK_EQ(do_sys_fcntl(2, F_GETFD, 0), FD_CLOEXEC);
	CHECK_EQ(do_sys_fcntl(2, F_SETFD, 0), 0);
	CHECK_EQ(do_sys_fcntl(2, F_GETFD, 0), 0);
	CHECK_EQ(do_sys_fcntl(7, F_SETFD, FD_CLOEXEC), 0);
	CHECK_EQ(do_sys_fcntl(0, F_DUPFD, -1), -EINVAL);
	CHECK_EQ(do_sys_fcntl(0, F_DUPFD, NR_OPEN), -EINVAL);
	CHECK_EQ(do_sys_fcntl(0, 9999, 0), -EINVAL);
	CHECK_EQ(do_sys_fcntl(40, F_GETFD, 0), -EBADF);

	/* F_SETFL changes O_APPEND and O_NONBLOCK, never the access mode. */
	CHECK_EQ(do_sys_fcntl(0, F_SETFL, O_APPEND | O_NONBLOCK | O_WRONLY | O_TRUNC), 0);
	CHECK_EQ(do_sys_fcntl(1, F_GETFL, 0), O_RDWR | O_APPEND | O_NONBLOCK | O_LARGEFILE);
	CHECK_EQ(do_sys_fcntl(0, F_SETFL, 0), 0);
	CHECK_EQ(do_sys_fcntl(0, F_GETFL, 0), O_RDWR | O_LARGEFILE);
	int on = 1;
	CHECK_EQ(do_sys_ioctl(0, 0x5421, (unsigned long)&on), 0); /* FIONBIO */
	CHECK_EQ(do_sys_fcntl(0, F_GETFL, 0), O_RDWR | O_NONBLOCK | O_LARGEFILE);
	CHECK_EQ(do_sys_ioctl(0, 0x5421, (unsigned long)BAD_USER_PTR), -EFAULT);
	CHECK_EQ(do_sys_ioctl(0, 0x5451, 0), 0); /* FIOCLEX */
	CHECK_EQ(do_sys_fcntl(0, F_GETFD, 0), FD_CLOEXEC);
	CHECK_EQ(do_sys_ioctl(0, 0x5413, 0), -ENOTTY); /* a file is not a terminal */
	CHECK_EQ(do_sys_ioctl(33, 0x5413, 0), -EBADF);

	/* exec closes the close-on-exec ones: 0, 3 and 7 here. */
	files_close_on_exec(test_task.files);
	CHECK_EQ(do_sys_fcntl(0, F_GETFD, 0), -EBADF);
	CHECK_EQ(do_sys_fcntl(3, F_GETFD, 0), -EBADF);
	CHECK_EQ(do_sys_fcntl(7, F_GETFD, 0), -EBADF);
	CHECK_EQ(do_sys_fcntl(1, F_GETFD, 0), 0);
	CHECK_EQ(do_sys_dup(1), 0);
}

UNIT_TEST(the_table_grows_to_nr_open)
{
	fs_setup();
	u64 objects = kmalloc_objects_now();
	int fd = (int)do_sys_open("/dev/null", O_RDWR, 0);
	for (int i = 1; i < NR_OPEN; i++)
		CHECK_EQ(do_sys_dup(fd), i);
	CHECK_EQ(do_sys_dup(fd), -EMFILE);
	CHECK_EQ(do_sys_open("/dev/null", O_RDWR, 0), -EMFILE);
	CHECK_EQ(do_sys_close(500), 0);
	CHECK_EQ(do_sys_dup(fd), 500);
	CHECK_EQ(do_sys_fcntl(fd, F_DUPFD, 1000), -EMFILE);
	CHECK_EQ(do_sys_dup2(fd, NR_OPEN - 1), NR_OPEN - 1);

	/* fork's copy shares the open files; putting both tables frees everything. */
	int err;
	struct files *copy = files_dup(test_task.files, &err);
	CHECK(copy != NULL);
	CHECK_EQ(copy->max, NR_OPEN);
	CHECK(copy->fd[700] == test_task.files->fd[700]);
	files_put(copy);
	files_put(test_task.files);
	test_task.files = files_alloc();
	files_put(test_task.files);
	test_task.files = NULL;
	CHECK_EQ(kmalloc_objects_now(), objects - 3); /* less the table: files, fds, bits */
	fs_context_put(test_task.fs);
}

UNIT_TEST(descriptors_grow_from_a_high_dup2)
{
	fs_setup();
	CHECK_EQ(do_sys_dup2(do_sys_open("/dev/zero", O_RDONLY, 0), 300), 300);
	CHECK_EQ(test_task.files->max, 512);
	CHECK_EQ(do_sys_fcntl(0, F_DUPFD, 200), 200);
	CHECK_EQ(do_sys_fcntl(300, F_GETFD, 0), 0);
}

UNIT_TEST(stat_and_access)
{
	struct kernel_stat st;

	fs_setup();
	make_file("/f", "abc");
	int fd = (int)do_sys_open("/f", O_RDONLY, 0);
	CHECK_EQ(do_sys_fstat(fd, &st), 0);
	CHECK_EQ(do_sys_fstat(fd, BAD_USER_PTR), -EFAULT);
	CHECK_EQ(do_sys_fstat(99, &st), -EBADF);
	CHECK_EQ(do_sys_lstat("/f", &st), 0);
	CHECK_EQ(st.st_size, 3);
	CHECK_EQ(do_sys_stat("/f", &st), 0);
	CHECK(st.st_ino != 0 && st.st_ino != stat_of("/").st_ino);

	CHECK_EQ(do_sys_access("/f", F_OK), 0);
	CHECK_EQ(do_sys_access("/f", R_OK | W_OK), 0);
	CHECK_EQ(do_sys_access("/f", X_OK), -EACCES);
	CHECK_EQ(do_sys_access("/tmp", X_OK), 0);
	CHECK_EQ(do_sys_access("/missing", F_OK), -ENOENT);
	CHECK_EQ(do_sys_access("/f", 8), -EINVAL);
	CHECK_EQ(do_sys_access(BAD_USER_PTR, F_OK), -EFAULT);
	CHECK_EQ(do_sys_faccessat(AT_FDCWD, "f", R_OK), 0);
	CHECK_EQ(do_sys_faccessat2(fd, "", R_OK, AT_EMPTY_PATH), 0);
	CHECK_EQ(do_sys_faccessat2(AT_FDCWD, "/f", R_OK, 0x4), -EINVAL);
	CHECK_EQ(do_sys_faccessat2(AT_FDCWD, "/f", R_OK, AT_EACCESS), 0);
	int w = (int)do_sys_open("/x", O_CREAT | O_WRONLY, 0755);
	do_sys_close(w);
	CHECK_EQ(do_sys_access("/x", X_OK), 0);

	CHECK_EQ(do_sys_fsync(fd), 0);
	CHECK_EQ(do_sys_fdatasync(fd), 0);
	CHECK_EQ(do_sys_fsync(77), -EBADF);
	int n = (int)do_sys_open("/dev/null", O_WRONLY, 0);
	CHECK_EQ(do_sys_fsync(n), -EINVAL);
	CHECK_EQ(do_sys_sync(), 0);
}

UNIT_TEST(devices_null_zero_console)
{
	char buf[16];

	fs_setup();
	int null = (int)do_sys_open("/dev/null", O_RDWR, 0);
	CHECK_EQ(do_sys_write(null, "gone", 4), 4);
	CHECK_EQ(do_sys_read(null, buf, sizeof(buf)), 0);
	CHECK_EQ(do_sys_lseek(null, 100, SEEK_SET), 0);
	CHECK_EQ(do_sys_pread64(null, buf, 4, 10), 0);
	int zero = (int)do_sys_open("/dev/zero", O_RDONLY, 0);
	memset(buf, 'q', sizeof(buf));
	CHECK_EQ(do_sys_read(zero, buf, sizeof(buf)), sizeof(buf));
	CHECK(all_zero((u8 *)buf, sizeof(buf)));
	CHECK_EQ(do_sys_read(zero, BAD_USER_PTR, 8), -EFAULT);

	CHECK_EQ(console_open_stdio(), 0);
	CHECK_EQ(do_sys_write(1, "to the console\n", 15), 15);
	CHECK_EQ(do_sys_write(2, "err\n", 4), 4);
	CHECK_EQ(console_len, 19);
	CHECK(memcmp(console_out, "to the console\nerr\n", 19) == 0);
	CHECK_EQ(do_sys_read(0, buf, sizeof(buf)), 0);
	CHECK_EQ(do_sys_ioctl(1, 0x5413, 0), -ENOTTY); /* no ioctl operation */
	CHECK_EQ(do_sys_lseek(1, 0, SEEK_SET), -ESPIPE);
	CHECK_EQ(do_sys_pwrite64(1, "x", 1, 0), -ESPIPE);
	CHECK_EQ(do_sys_write(1, BAD_USER_PTR, 3), -EFAULT);
	CHECK_EQ(do_sys_fcntl(0, F_GETFL, 0), O_RDWR | O_LARGEFILE);
	/* A driver's device appears in /dev. */
	CHECK_EQ(devfs_register("null", MKDEV(1, 3), &null_fops, NULL), -EEXIST);
}

UNIT_TEST(what_execve_and_mmap_use)
{
	struct file *f;
	char buf[16], path[32];

	fs_setup();
	memset(big, 'e', sizeof(big));
	int fd = (int)do_sys_open("/prog", O_CREAT | O_WRONLY, 0755);
	do_sys_write(fd, (char *)big, 5000);
	do_sys_close(fd);
	make_file("/data", "plain");

	CHECK_EQ(open_exec("/prog", &f), 0);
	CHECK_EQ(file_size(f), 5000);
	CHECK_EQ(kernel_read(f, buf, sizeof(buf), 4990), 10);
	CHECK(memcmp(buf, "eeeeeeeeee", 10) == 0);
	CHECK_EQ(kernel_read(f, buf, sizeof(buf), 6000), 0);
	file_path(f, path, sizeof(path));
	CHECK_STR(path, "/prog");

	/* Pages for mmap: shared with the cache, none past the end. */
	struct page *p = file_get_page(f, 1);
	CHECK(p != NULL);
	CHECK(p->mapping == f->inode);
	CHECK_EQ(p->index, 1);
	CHECK_EQ(page_refcount(p), 2); /* the cache's and ours */
	CHECK(memcmp((char *)page_address(p) + 900, "eeee", 4) == 0);
	CHECK(all_zero((u8 *)page_address(p) + 5000 - 4096, 8192 - 5000));
	CHECK(file_get_page(f, 2) == NULL); /* past the end: SIGBUS */
	/* A truncation takes the page out of the file, but our reference keeps it. */
	CHECK_EQ(vfs_truncate(f->inode, 0), 0);
	CHECK(p->mapping == NULL);
	CHECK_EQ(page_refcount(p), 1);
	put_page(p);
	file_put(f);

	/* No x bit (even for root), a directory, nothing: not a program. */
	CHECK_EQ(open_exec("/data", &f), -EACCES);
	CHECK_EQ(open_exec("/tmp", &f), -EACCES);
	CHECK_EQ(open_exec("/missing", &f), -ENOENT);
	CHECK_EQ(file_open_at(AT_FDCWD, "/tmp", O_RDONLY, 0, &f), 0);
	CHECK_EQ(kernel_read(f, buf, 1, 0), -EINVAL); /* only regular files are read */
	file_put(f);
	/* A hole in the middle of a file is a fresh zero page for mmap. */
	CHECK_EQ(open_exec("/prog", &f), 0);
	CHECK_EQ(vfs_truncate(f->inode, 3 * PAGE_SIZE), 0);
	p = file_get_page(f, 2);
	CHECK(p != NULL && all_zero(page_address(p), PAGE_SIZE));
	put_page(p);
	file_put(f);
}

/* What a read fault may map around its page (mm/fault_around.c): cached pages below the end only. */
UNIT_TEST(cached_pages_for_fault_around)
{
	struct file *f;
	struct page *pages[6];

	fs_setup();
	memset(big, 'c', sizeof(big));
	int fd = (int)do_sys_open("/cached", O_CREAT | O_WRONLY, 0644);
	do_sys_write(fd, (char *)big, 2 * PAGE_SIZE + 10); /* pages 0, 1 and 2 */
	do_sys_close(fd);
	CHECK_EQ(file_open_at(AT_FDCWD, "/cached", O_RDONLY, 0, &f), 0);
	CHECK_EQ(vfs_truncate(f->inode, 5 * PAGE_SIZE), 0); /* pages 3 and 4: holes */

	CHECK_EQ(file_get_cached_pages(f, 0, 6, pages), 3);
	for (int i = 0; i < 3; i++) {
		CHECK(pages[i] && pages[i]->mapping == f->inode && pages[i]->index == (u64)i);
		CHECK_EQ(page_refcount(pages[i]), 2); /* the cache's and the caller's */
		put_page(pages[i]);
	}
	CHECK(!pages[3] && !pages[4] && !pages[5]); /* holes are not made, nor is past the end */
	CHECK_EQ(vfs_truncate(f->inode, PAGE_SIZE + 1), 0);
	CHECK_EQ(file_get_cached_pages(f, 1, 2, pages), 1); /* page 2 is past the end now */
	CHECK(pages[0] && !pages[1]);
	put_page(pages[0]);
	file_put(f);
}

UNIT_TEST(fs_context_fork_and_teardown)
{
	char buf[32];

	fs_setup();
	do_sys_mkdir("/home", 0755);
	do_sys_chdir("/home");
	do_sys_umask(077);
	struct fs_context *parent = test_task.fs;
	struct fs_context *child = fs_context_dup(parent);
	test_task.fs = child;
	CHECK_EQ(do_sys_getcwd(buf, sizeof(buf)), 6);
	CHECK_EQ(do_sys_umask(0), 077);
	do_sys_chdir("/");
	test_task.fs = parent;
	do_sys_getcwd(buf, sizeof(buf));
	CHECK_STR(buf, "/home");
	fs_context_put(child);
	fs_teardown_task();
	CHECK_EQ(do_sys_rmdir("/home"), 0); /* kernel threads work from the root */
}
