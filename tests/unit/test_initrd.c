/*
 * test_initrd.c - host tests of unpacking cpio archives into the ramfs
 * (fs/initrd.c over fs/cpio.c and the whole VFS, see fs_host.h). The
 * "modules" are host buffers: with direct_map_base 0, a physical address
 * is the host address.
 */
#include "tests/unit/fs_host.h"

static u8 arc[2][8192];
static size_t arc_len[2];
static int cur;

static void
arc_begin(int which)
{
	cur = which;
	arc_len[cur] = 0;
}

static void
arc_pad(void)
{
	while (arc_len[cur] & 3)
		arc[cur][arc_len[cur]++] = 0;
}

static void
arc_add(const char *name, u32 mode, const char *data)
{
	size_t n = strlen(data);

	arc_len[cur] += (size_t)snprintf(
		(char *)arc[cur] + arc_len[cur], sizeof(arc[cur]) - arc_len[cur],
		"070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", 1u, mode, 0u, 0u,
		1u, 1234567u, n, 0u, 0u, 0u, 0u, strlen(name) + 1, 0u);
	memcpy(arc[cur] + arc_len[cur], name, strlen(name) + 1);
	arc_len[cur] += strlen(name) + 1;
	arc_pad();
	memcpy(arc[cur] + arc_len[cur], data, n);
	arc_len[cur] += n;
	arc_pad();
}

static void
arc_end(void)
{
	arc_add("TRAILER!!!", 0, "");
}

static void
load(int nmodules)
{
	static struct boot_info bi;

	memset(&bi, 0, sizeof(bi));
	bi.nmodules = nmodules;
	for (int i = 0; i < nmodules; i++) {
		bi.modules[i].start = (uintptr_t)arc[i];
		bi.modules[i].end = (uintptr_t)arc[i] + arc_len[i];
		snprintf(bi.modules[i].string, sizeof(bi.modules[i].string), "initrd%d", i);
	}
	initrd_load(&bi);
}

static bool
has_contents(const char *path, const char *want)
{
	static char buf[4096];
	int fd = (int)do_sys_open(path, O_RDONLY, 0);

	if (fd < 0)
		return false;
	long n = do_sys_read(fd, buf, sizeof(buf));
	do_sys_close(fd);
	return n == (long)strlen(want) && memcmp(buf, want, (size_t)n) == 0;
}

UNIT_TEST(an_archive_becomes_the_tree)
{
	fs_setup();
	arc_begin(0);
	arc_add(".", 040755, "");
	arc_add("bin", 040755, "");
	arc_add("bin/sh", 0100755, "#!shell");
	arc_add("./etc/motd", 0100644, "welcome\n"); /* its parent comes from nowhere */
	arc_add("/abs/path", 0100600, "leading slash");
	arc_add("etc", 040700, ""); /* after its child: the mode still applies */
	arc_add("link", 0120777, "bin/sh");
	arc_add("tmp", 041777, ""); /* exists already: takes the archive's mode */
	arc_end();
	load(1);

	CHECK_EQ(stat_of("/bin").st_mode, S_IFDIR | 0755);
	CHECK_EQ(stat_of("/bin/sh").st_mode, S_IFREG | 0755);
	CHECK(has_contents("/bin/sh", "#!shell"));
	CHECK_EQ(stat_of("/bin/sh").st_mtime, 1234567);
	CHECK(has_contents("/etc/motd", "welcome\n"));
	CHECK_EQ(stat_of("/etc").st_mode, S_IFDIR | 0700);
	CHECK(has_contents("/abs/path", "leading slash"));
	CHECK_EQ(stat_of("/abs").st_mode, S_IFDIR | 0755);
	CHECK_EQ(stat_of("/link").st_mode, S_IFREG | 0755); /* a link, followed */
	struct kernel_stat lst;
	char target[16];
	CHECK_EQ(do_sys_lstat("/link", &lst), 0);
	CHECK_EQ(lst.st_mode, S_IFLNK | 0777);
	CHECK_EQ(do_sys_readlink("/link", target, sizeof(target)), 6);
	CHECK(memcmp(target, "bin/sh", 6) == 0);
	CHECK_EQ(stat_of("/tmp").st_mode, S_IFDIR | 01777);
	CHECK(strstr(unit_last_log, "initrd0: 3 directories, 3 files (28 bytes), 1 symlinks"));
	struct file *f;
	CHECK_EQ(open_exec("/bin/sh", &f), 0);
	file_put(f);
}

UNIT_TEST(a_corrupt_archive_keeps_what_came_before)
{
	fs_setup();
	arc_begin(0);
	arc_add("good", 040755, "");
	arc_add("good/file", 0100644, "kept");
	size_t bad = arc_len[0];
	arc_add("lost", 0100644, "never seen");
	arc_end();
	arc[0][bad + 6 + 8 * 6 + 3] = 'Z'; /* the third entry's filesize */
	int logs = unit_log_count;
	load(1);
	CHECK(has_contents("/good/file", "kept"));
	CHECK_EQ(stat_of("/lost").st_mode, 0);
	CHECK_EQ(unit_log_count, logs + 2); /* the error, then the summary */
	CHECK(strstr(unit_last_log, "1 directories, 1 files (4 bytes), incomplete"));

	/* Cut short: the same. */
	arc_begin(0);
	arc_add("a", 0100644, "aaaa");
	arc_add("b", 0100644, "bbbb");
	arc_len[0] -= 6;
	load(1);
	CHECK(has_contents("/a", "aaaa"));
	CHECK_EQ(stat_of("/b").st_mode, 0);
	CHECK(strstr(unit_last_log, "incomplete"));
}

UNIT_TEST(entries_that_must_not_be_made)
{
	fs_setup();
	arc_begin(0);
	arc_add("x", 0100644, "file");
	arc_add("x/under", 0100644, "a file under a file"); /* cannot be made: skipped */
	arc_add("y", 0100644, "y");
	arc_add("../escape", 0100644, "out of the root"); /* corruption: stops */
	arc_add("z", 0100644, "z");
	arc_end();
	load(1);
	CHECK(has_contents("/x", "file"));
	CHECK(has_contents("/y", "y"));
	CHECK_EQ(stat_of("/escape").st_mode, 0);
	CHECK_EQ(stat_of("/z").st_mode, 0);

	arc_begin(0);
	arc_add("d", 040755, "data in a directory");
	arc_add("after", 0100644, "");
	arc_end();
	load(1);
	CHECK_EQ(stat_of("/d").st_mode, 0);
	CHECK_EQ(stat_of("/after").st_mode, 0);
}

UNIT_TEST(several_modules_and_a_replaced_file)
{
	fs_setup();
	arc_begin(0);
	arc_add("etc/conf", 0100600, "first version, long");
	arc_end();
	arc_begin(1);
	arc_add("etc/conf", 0100644, "second");
	arc_add("other", 0100644, "o");
	arc_end();
	load(2);
	CHECK(has_contents("/etc/conf", "second"));
	CHECK_EQ(stat_of("/etc/conf").st_mode, S_IFREG | 0644);
	CHECK(has_contents("/other", "o"));

	/* A module whose end lies before its start is reported and passed over. */
	static struct boot_info bi;
	bi.nmodules = 1;
	bi.modules[0].start = 0x2000;
	bi.modules[0].end = 0x1000;
	initrd_load(&bi);
	CHECK(strstr(unit_last_log, "ends (0x1000) before it starts (0x2000)"));
}

/* Turns the entry at start into a 070702 one whose checksum is off by wrong. */
static void
arc_set_checksum(size_t start, const char *data, u32 wrong)
{
	u32 sum = wrong;
	char check[9];

	for (const char *p = data; *p; p++)
		sum += (u8)*p;
	arc[cur][start + 5] = '2';
	snprintf(check, sizeof(check), "%08X", sum);
	memcpy(arc[cur] + start + 6 + 8 * 12, check, 8);
}

UNIT_TEST(data_streams_into_pages_and_a_bad_checksum_removes_the_file)
{
	static char big[6000]; /* across a page boundary */
	static char buf[sizeof(big)];

	fs_setup();
	for (size_t i = 0; i < sizeof(big) - 1; i++)
		big[i] = (char)('a' + i % 23);
	arc_begin(0);
	arc_add("big", 0100644, big);
	size_t good = arc_len[cur];
	arc_add("good", 0100644, "summed right");
	arc_set_checksum(good, "summed right", 0);
	size_t bad = arc_len[cur];
	arc_add("bad", 0100644, "summed wrong");
	arc_set_checksum(bad, "summed wrong", 1);
	arc_add("after", 0100644, "never reached");
	arc_end();
	load(1);

	int fd = (int)do_sys_open("/big", O_RDONLY, 0);
	CHECK(fd >= 0);
	CHECK_EQ(do_sys_read(fd, buf, sizeof(buf)), (long)sizeof(big) - 1);
	CHECK(memcmp(buf, big, sizeof(big) - 1) == 0);
	do_sys_close(fd);
	CHECK(has_contents("/good", "summed right"));
	CHECK_EQ(stat_of("/bad").st_mode, 0);
	CHECK_EQ(stat_of("/after").st_mode, 0);
	CHECK(strstr(unit_last_log, "2 files (6011 bytes), incomplete"));
}
