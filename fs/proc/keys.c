/*
 * keys.c - the key retention service in /proc (kernel/keys/): /proc/keys,
 * /proc/key-users, and /proc/sys/kernel/keys, the quotas (maxkeys,
 * maxbytes, root_maxkeys, root_maxbytes), gc_delay and
 * persistent_keyring_expiry, root's to set, with Linux's ranges.
 */
#include "fs/proc/internal.h"
#include "kernel/keys/key.h"
#include "kernel/keys/keys.h"

int
proc_show_keys(struct procbuf *b, union proc_arg arg)
{
	keys_proc_show_keys(b);
	return 0;
}

int
proc_show_key_users(struct procbuf *b, union proc_arg arg)
{
	keys_proc_show_users(b);
	return 0;
}

static int
show_value(struct procbuf *b, const unsigned long *v)
{
	procbuf_printf(b, "%lu\n", READ_ONCE(*v));
	return 0;
}

/* A number in [min, INT_MAX] (Linux's proc_dointvec_minmax): EINVAL past it. */
static int
write_value(const char *value, unsigned long *v, unsigned long min)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);

	if (!err && (n < min || n > 0x7fffffff))
		err = -EINVAL;
	if (!err) {
		mutex_lock(&keys_lock);
		WRITE_ONCE(*v, n);
		mutex_unlock(&keys_lock);
	}
	return err;
}

#define KEYS_FILE(show, write, var, min)                        \
	static int show(struct procbuf *b, union proc_arg arg)  \
	{                                                       \
		return show_value(b, &var);                     \
	}                                                       \
	static int write(const char *value, union proc_arg arg) \
	{                                                       \
		return write_value(value, &var, min);           \
	}
KEYS_FILE(show_maxkeys, write_maxkeys, key_quota_maxkeys, 0)
KEYS_FILE(show_maxbytes, write_maxbytes, key_quota_maxbytes, 0)
KEYS_FILE(show_root_maxkeys, write_root_maxkeys, key_quota_root_maxkeys, 0)
KEYS_FILE(show_root_maxbytes, write_root_maxbytes, key_quota_root_maxbytes, 0)
KEYS_FILE(show_gc_delay, write_gc_delay, key_gc_delay, 0)
KEYS_FILE(show_persistent_expiry, write_persistent_expiry, persistent_keyring_expiry, 0)

#define KEYS_ENTRY(n, s, w)                                                               \
	{                                                                                 \
		.name = n, .mode = S_IFREG | 0644, .show = s, .write = w, .control = true \
	}
static const struct proc_entry keys_sysctl_entries[] = {
	KEYS_ENTRY("gc_delay", show_gc_delay, write_gc_delay),
	KEYS_ENTRY("maxbytes", show_maxbytes, write_maxbytes),
	KEYS_ENTRY("maxkeys", show_maxkeys, write_maxkeys),
	KEYS_ENTRY("persistent_keyring_expiry", show_persistent_expiry, write_persistent_expiry),
	KEYS_ENTRY("root_maxbytes", show_root_maxbytes, write_root_maxbytes),
	KEYS_ENTRY("root_maxkeys", show_root_maxkeys, write_root_maxkeys),
};

const struct proc_dir proc_sys_keys_dir = {
	.entries = keys_sysctl_entries,
	.nentries = ARRAY_SIZE(keys_sysctl_entries),
};
