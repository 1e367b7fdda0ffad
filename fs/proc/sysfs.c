/*
 * sysfs.c - /sys, as far as programs read it here: the huge page pool's
 * files under /sys/kernel/mm/hugepages/hugepages-2048kB (nr_hugepages,
 * root's to set; free_hugepages, resv_hugepages, surplus_hugepages;
 * nr_overcommit_hugepages, always 0: the pool never overcommits), and the
 * pool size's other name, /proc/sys/vm/nr_hugepages (sysctl.c). The
 * /proc machinery (procfs.c) shows the tree; mm/hugetlb.c keeps the counts.
 */
#include "fs/proc/internal.h"
#include "fs/proc/text.h"
#include "mm/hugetlb.h"
#include "uapi/stat.h"

static int
show_count(struct procbuf *b, u64 n)
{
	procbuf_printf(b, "%lu\n", n);
	return 0;
}

int
proc_show_nr_hugepages(struct procbuf *b, union proc_arg arg)
{
	struct hugetlb_counts c;

	hugetlb_get_counts(&c);
	return show_count(b, c.total - c.surplus);
}

int
proc_write_nr_hugepages(const char *value, union proc_arg arg)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);

	if (!err)
		hugetlb_set_pool_size(n);
	return err;
}

/* One of the pool's counts, named by its place in struct hugetlb_counts. */
static int
show_counts_field(struct procbuf *b, size_t offset)
{
	struct hugetlb_counts c;

	hugetlb_get_counts(&c);
	return show_count(b, *(const u64 *)((const char *)&c + offset));
}

static int
show_free(struct procbuf *b, union proc_arg arg)
{
	return show_counts_field(b, offsetof(struct hugetlb_counts, free));
}

static int
show_resv(struct procbuf *b, union proc_arg arg)
{
	return show_counts_field(b, offsetof(struct hugetlb_counts, resv));
}

static int
show_surplus(struct procbuf *b, union proc_arg arg)
{
	return show_counts_field(b, offsetof(struct hugetlb_counts, surplus));
}

static int
show_zero(struct procbuf *b, union proc_arg arg)
{
	return show_count(b, 0);
}

static const struct proc_entry pool_entries[] = {
	{ .name = "free_hugepages", .mode = S_IFREG | 0444, .show = show_free },
	{ .name = "nr_hugepages",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_nr_hugepages,
	  .write = proc_write_nr_hugepages,
	  .control = true },
	{ .name = "nr_overcommit_hugepages", .mode = S_IFREG | 0444, .show = show_zero },
	{ .name = "resv_hugepages", .mode = S_IFREG | 0444, .show = show_resv },
	{ .name = "surplus_hugepages", .mode = S_IFREG | 0444, .show = show_surplus },
};

#define DIR(var, entries_) \
	static const struct proc_dir var = { .entries = entries_, .nentries = ARRAY_SIZE(entries_) }

DIR(pool_dir, pool_entries);
static const struct proc_entry hugepages_entries[] = {
	{ .name = "hugepages-2048kB", .mode = S_IFDIR | 0555, .dir = &pool_dir },
};
DIR(hugepages_dir, hugepages_entries);
static const struct proc_entry mm_entries[] = {
	{ .name = "hugepages", .mode = S_IFDIR | 0555, .dir = &hugepages_dir },
};
DIR(mm_dir, mm_entries);
static const struct proc_entry kernel_entries[] = {
	{ .name = "mm", .mode = S_IFDIR | 0555, .dir = &mm_dir },
};
DIR(kernel_dir, kernel_entries);
static const struct proc_entry root_entries[] = {
	{ .name = "kernel", .mode = S_IFDIR | 0555, .dir = &kernel_dir },
};
DIR(root_dir, root_entries);

const struct proc_entry sysfs_root_entry = { .name = "sys",
					     .mode = S_IFDIR | 0555,
					     .dir = &root_dir };
