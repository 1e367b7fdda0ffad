/*
 * proc.c - /proc/keys and /proc/key-users in Linux's format (Linux's
 * security/keys/proc.c): every key the reader may view, with its flags,
 * references, timeout, permissions, owner, type and description; and
 * every user's keys and quota use. fs/proc/keys.c puts them in /proc.
 */
#include "kernel/keys/key.h"
#include "kernel/keys/keys.h"
#include "fs/proc/text.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

/* "perm", "expd", or the time left in the largest unit that is at least one. */
static void
format_timeout(char out[8], const struct key *key, s64 now)
{
	static const struct {
		s64 seconds;
		char unit;
	} units[] = { { 60 * 60 * 24 * 7, 'w' },
		      { 60 * 60 * 24, 'd' },
		      { 60 * 60, 'h' },
		      { 60, 'm' },
		      { 1, 's' } };

	if (!key->expiry) {
		ksnprintf(out, 8, "perm");
		return;
	}
	if (now >= key->expiry) {
		ksnprintf(out, 8, "expd");
		return;
	}
	s64 left = key->expiry - now;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (left >= units[i].seconds || units[i].unit == 's') {
			ksnprintf(out, 8, "%lld%c", (long long)(left / units[i].seconds),
				  units[i].unit);
			return;
		}
}

static char
flag_char(const struct key *key, unsigned flag, char c)
{
	return key->flags & flag ? c : '-';
}

/* A type's line end: a user key's payload size, a keyring's count of links ("empty"). */
static void
describe(struct procbuf *b, const struct key *key)
{
	procbuf_printf(b, "%s", key->description);
	if (!key_is_positive(key) || key->flags & KEY_FLAG_REVOKED)
		return;
	if (key->type == &key_type_keyring) {
		const struct keyring_links *links = key->payload;
		if (links->count)
			procbuf_printf(b, ": %d", links->count);
		else
			procbuf_printf(b, ": empty");
	} else {
		procbuf_printf(b, ": %u", key->quotalen - (u32)strlen(key->description) - 1);
	}
}

void
keys_proc_show_keys(struct procbuf *b)
{
	struct list_head *pos;
	s64 now = key_now();
	char timeout[8];
	int err;

	mutex_lock(&keys_lock);
	current_session_keyring(&err); /* possession may make it: before the walk, not during */
	list_for_each(pos, &key_list) {
		struct key *key = list_entry(pos, struct key, link);
		bool possessed = (key->perm & KEY_POS_VIEW) && key_possessed(key);
		if (key_permission(key, possessed, KEY_NEED_VIEW))
			continue;
		format_timeout(timeout, key, now);
		procbuf_printf(
			b, "%08x %c%c%c%c%c%c%c %5d %4s %08x %5d %5d %-9.9s ", (u32)key->serial,
			flag_char(key, KEY_FLAG_INSTANTIATED, 'I'),
			flag_char(key, KEY_FLAG_REVOKED, 'R'), flag_char(key, KEY_FLAG_DEAD, 'D'),
			flag_char(key, KEY_FLAG_IN_QUOTA, 'Q'), '-',
			flag_char(key, KEY_FLAG_NEGATIVE, 'N'),
			flag_char(key, KEY_FLAG_INVALIDATED, 'i'), key->usage, timeout, key->perm,
			key_shown_id(key->uid), key_shown_id(key->gid), key->type->name);
		describe(b, key);
		procbuf_printf(b, "\n");
	}
	mutex_unlock(&keys_lock);
}

void
keys_proc_show_users(struct procbuf *b)
{
	struct list_head *pos;

	mutex_lock(&keys_lock);
	list_for_each(pos, &key_user_list) {
		const struct key_user *user = list_entry(pos, struct key_user, link);
		unsigned long maxkeys = user->uid ? key_quota_maxkeys : key_quota_root_maxkeys;
		unsigned long maxbytes = user->uid ? key_quota_maxbytes : key_quota_root_maxbytes;
		procbuf_printf(b, "%5u: %5d %d/%d %d/%lu %u/%lu\n", user->uid, user->usage,
			       user->nkeys, user->nikeys, user->qnkeys, maxkeys, user->qnbytes,
			       maxbytes);
	}
	mutex_unlock(&keys_lock);
}
