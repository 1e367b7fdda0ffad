/*
 * tmpfs.c - the RAM file system's instances as mount(2) names them:
 * "tmpfs" (sized: size=, nr_inodes=, by default half of RAM each, as
 * Linux's tmpfs), "ramfs" (unlimited, as Linux's ramfs) and the root
 * file system ("rootfs", sized by the ramfs_size knob; not mountable).
 * Their options, what /proc/mounts shows of them and their statfs figures;
 * and "hugetlbfs", whose files are fs/hugetlbfs.c's (pagesize=2M, mode=,
 * uid=, gid=).
 *
 * tmpfs's options are Linux's: size=N with a k, m, g or t suffix or a
 * percentage of RAM, nr_inodes=N with k, m or g, mode= (octal), uid=,
 * gid=, and inode64/inode32 (accepted: inode numbers here are 64-bit
 * anyway). 0 for size or nr_inodes means no limit. An unknown option is
 * EINVAL; ramfs takes mode= and ignores the rest, as Linux's does. A
 * remount may change size= and nr_inodes= but not below what is in use,
 * nor give a limit to an instance mounted without one (EINVAL, as Linux);
 * mode=, uid= and gid= are for the root directory at mount time only.
 *
 * Not here: the tree itself (ramfs.c), the page cache and its accounting
 * (filemap.c, super.c), the mount table (mount.c).
 */
#include "fs/vfs.h"
#include "fs/hugetlbfs.h"
#include "mm/hugetlb.h"
#include "uapi/errno.h"
#include "uapi/magic.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "mm/page_alloc.h"

static u64
half_of_ram_pages(void)
{
	return page_alloc_total_pages() / 2;
}

/* An unsigned number in base (8 or 10), then what follows it in *end: 0 or -EINVAL. */
static int
parse_number(const char *s, unsigned base, u64 *out, const char **end)
{
	u64 v = 0;
	const char *p = s;

	for (; *p >= '0' && *p < '0' + (int)base; p++) {
		if (__builtin_mul_overflow(v, base, &v) ||
		    __builtin_add_overflow(v, (u64)(*p - '0'), &v))
			return -EINVAL;
	}
	if (p == s)
		return -EINVAL;
	*out = v;
	*end = p;
	return 0;
}

/* A whole number with an optional k/m/g/t suffix (Linux's memparse), nothing after it. */
static int
parse_scaled(const char *s, const char *suffixes, u64 *out)
{
	const char *end;
	u64 v;

	if (parse_number(s, 10, &v, &end))
		return -EINVAL;
	if (*end) {
		const char *at = strchr(suffixes, *end | 0x20);
		if (!at || end[1] ||
		    __builtin_mul_overflow(v, 1ull << (10 * (at - suffixes + 1)), &v))
			return -EINVAL;
	}
	*out = v;
	return 0;
}

static int
parse_id(const char *s, u32 *out)
{
	const char *end;
	u64 v;

	if (parse_number(s, 10, &v, &end) || *end || v >= 0xffffffffu)
		return -EINVAL;
	*out = (u32)v;
	return 0;
}

static int
parse_mode(const char *s, u32 *out)
{
	const char *end;
	u64 v;

	if (!s || parse_number(s, 8, &v, &end) || *end || v > 07777)
		return -EINVAL;
	*out = (u32)v;
	return 0;
}

/* size=: pages (rounded up), from bytes or a percentage of RAM. */
static int
parse_size(const char *s, u64 *pages)
{
	size_t n = strlen(s);
	u64 v;

	if (n > 1 && s[n - 1] == '%') {
		char digits[24];
		const char *end;
		if (n > sizeof(digits))
			return -EINVAL;
		memcpy(digits, s, n - 1);
		digits[n - 1] = '\0';
		if (parse_number(digits, 10, &v, &end) || *end ||
		    __builtin_mul_overflow(v, half_of_ram_pages() * 2, &v))
			return -EINVAL;
		*pages = v / 100;
		return 0;
	}
	if (parse_scaled(s, "kmgt", &v))
		return -EINVAL;
	*pages = v / PAGE_SIZE + (v % PAGE_SIZE != 0);
	return 0;
}

/* mode=, uid= and gid= of the root directory (at mount time only): 0 or -EINVAL. */
static int
parse_root_option(struct super_block *sb, const char *key, const char *value)
{
	if (!strcmp(key, "mode"))
		return parse_mode(value, &sb->mode);
	if (!strcmp(key, "uid"))
		return parse_id(value, &sb->uid);
	if (!strcmp(key, "gid"))
		return parse_id(value, &sb->gid);
	return -EINVAL;
}

static int
tmpfs_parse_option(struct super_block *sb, const char *key, const char *value, bool remount)
{
	if (!strcmp(key, "inode64") || !strcmp(key, "inode32"))
		return value ? -EINVAL : 0;
	if (!value)
		return -EINVAL;
	if (!strcmp(key, "size") || !strcmp(key, "nr_inodes")) {
		bool size = key[0] == 's';
		u64 v, *limit = size ? &sb->max_pages : &sb->max_inodes;
		u64 used = size ? sb->nr_pages : sb->nr_inodes;
		if (size ? parse_size(value, &v) : parse_scaled(value, "kmg", &v))
			return -EINVAL;
		if (remount && v && (!*limit || v < used))
			return -EINVAL; /* limiting an unlimited instance, or below its use */
		*limit = v;
		return 0;
	}
	return remount ? 0 : parse_root_option(sb, key, value);
}

static int
ramfs_parse_option(struct super_block *sb, const char *key, const char *value, bool remount)
{
	if (!remount && !strcmp(key, "mode"))
		return parse_mode(value, &sb->mode);
	return 0;
}

/* hugetlbfs: the one page size there is, and the root's owner and mode. */
static int
hugetlbfs_parse_option(struct super_block *sb, const char *key, const char *value, bool remount)
{
	u64 size;

	if (!value)
		return -EINVAL;
	if (!strcmp(key, "pagesize"))
		return parse_scaled(value, "kmg", &size) || size != HPAGE_SIZE ? -EINVAL : 0;
	return remount ? 0 : parse_root_option(sb, key, value);
}

/* Linux's hugetlbfs_show_options: the owner and mode if not the defaults, and the page size. */
static size_t
hugetlbfs_show_options(struct super_block *sb, char *buf, size_t size)
{
	size_t n = 0;

	if (sb->mode != 0755)
		n += (size_t)kscnprintf(buf + n, size - n, ",mode=%o", sb->mode);
	if (sb->uid)
		n += (size_t)kscnprintf(buf + n, size - n, ",uid=%u", sb->uid);
	if (sb->gid)
		n += (size_t)kscnprintf(buf + n, size - n, ",gid=%u", sb->gid);
	return n + (size_t)kscnprintf(buf + n, size - n, ",pagesize=%luM", HPAGE_SIZE >> 20);
}

static void
tmpfs_init(struct super_block *sb)
{
	sb->mode = S_ISVTX | 0777;
	sb->max_pages = sb->max_inodes = half_of_ram_pages();
}

static void
ramfs_init(struct super_block *sb)
{
	sb->mode = 0755;
}

static struct inode *
ram_new_root(struct super_block *sb)
{
	struct inode *root = ramfs_new_inode(sb, S_IFDIR | sb->mode);

	if (root) {
		root->uid = sb->uid;
		root->gid = sb->gid;
	}
	return root;
}

/* Linux's shmem_show_options: what differs from the defaults. */
static size_t
tmpfs_show_options(struct super_block *sb, char *buf, size_t size)
{
	u64 half = half_of_ram_pages();
	size_t n = 0;

	if (sb->max_pages != half)
		n += (size_t)kscnprintf(buf + n, size - n, ",size=%luk",
					(unsigned long)(sb->max_pages * (PAGE_SIZE / 1024)));
	if (sb->max_inodes != half)
		n += (size_t)kscnprintf(buf + n, size - n, ",nr_inodes=%lu",
					(unsigned long)sb->max_inodes);
	if (sb->mode != (S_ISVTX | 0777))
		n += (size_t)kscnprintf(buf + n, size - n, ",mode=%03o", sb->mode);
	if (sb->uid)
		n += (size_t)kscnprintf(buf + n, size - n, ",uid=%u", sb->uid);
	if (sb->gid)
		n += (size_t)kscnprintf(buf + n, size - n, ",gid=%u", sb->gid);
	return n + (size_t)kscnprintf(buf + n, size - n, ",inode64");
}

static size_t
ramfs_show_options(struct super_block *sb, char *buf, size_t size)
{
	return sb->mode != 0755 ? (size_t)kscnprintf(buf, size, ",mode=%o", sb->mode) : 0;
}

/* The root shows its size and inodes always, as Linux's rootfs line on an initramfs does. */
static size_t
rootfs_show_options(struct super_block *sb, char *buf, size_t size)
{
	return (size_t)kscnprintf(buf, size, ",size=%luk,nr_inodes=%lu,inode64",
				  (unsigned long)(sb_max_pages(sb) * (PAGE_SIZE / 1024)),
				  (unsigned long)half_of_ram_pages());
}

/*
 * shmem_statfs: the size in pages, the pages not used free (never more
 * than the page allocator has free: there is no swap to put them in), the
 * inodes likewise; no limit shows as 0. The root has no nr_inodes limit
 * of its own and reports half of RAM, tmpfs's default.
 */
static void
tmpfs_usage(struct super_block *sb, u64 *blocks, u64 *bfree, u64 *files, u64 *ffree)
{
	struct page_alloc_stats pages;
	u64 used = __atomic_load_n(&sb->nr_pages, __ATOMIC_RELAXED);
	u64 inodes = __atomic_load_n(&sb->nr_inodes, __ATOMIC_RELAXED);

	page_alloc_get_stats(&pages);
	*blocks = sb_max_pages(sb) == UINT64_MAX ? 0 : sb_max_pages(sb);
	*bfree = used < *blocks ? *blocks - used : 0;
	if (*bfree > pages.free_pages)
		*bfree = pages.free_pages;
	*files = sb == root_sb ? half_of_ram_pages() : sb->max_inodes;
	*ffree = inodes < *files ? *files - inodes : 0;
}

struct fs_type tmpfs_type = {
	.name = "tmpfs",
	.magic = TMPFS_MAGIC,
	.init = tmpfs_init,
	.new_root = ram_new_root,
	.parse_option = tmpfs_parse_option,
	.show_options = tmpfs_show_options,
	.usage = tmpfs_usage,
	.kill_tree = ramfs_kill_tree,
	.xattrs = true,
	.exports = true, /* Linux's tmpfs has export operations, its ramfs none */
};

struct fs_type ramfs_type = {
	.name = "ramfs",
	.magic = RAMFS_MAGIC,
	.init = ramfs_init,
	.new_root = ram_new_root,
	.parse_option = ramfs_parse_option,
	.show_options = ramfs_show_options,
	.kill_tree = ramfs_kill_tree,
	.xattrs = true,
};

/*
 * Its regular files are hugetlbfs's (ramfs_new_inode asks); it has no
 * size limit of its own: the pool is its limit.
 */
struct fs_type hugetlbfs_type = {
	.name = "hugetlbfs",
	.magic = HUGETLBFS_MAGIC,
	.init = ramfs_init,
	.new_root = ram_new_root,
	.parse_option = hugetlbfs_parse_option,
	.show_options = hugetlbfs_show_options,
	.kill_tree = ramfs_kill_tree,
};

/* Made once at boot by vfs_init, never mounted by name: mount -t rootfs is ENODEV. */
struct fs_type rootfs_type = {
	.name = "rootfs",
	.magic = TMPFS_MAGIC,
	.show_options = rootfs_show_options,
	.usage = tmpfs_usage,
	.xattrs = true,
	.exports = true,
};
