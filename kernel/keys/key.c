/*
 * key.c - keys themselves (Linux's security/keys/key.c and permission.c):
 * serial numbers, references, the per-user quotas, the states a key goes
 * through (uninstantiated, positive or negative, revoked, invalidated,
 * expired) and the permission check. See kernel/keys/key.h.
 *
 * A serial is a random positive 31-bit number, as Linux's, so that one
 * cannot be guessed from another; the keys sit in one list in serial
 * order, which /proc/keys walks. A key is freed the moment its last
 * reference goes (Linux's garbage collector does it a little later): its
 * serial then answers ENOKEY.
 */
#include "kernel/keys/key.h"
#include "kernel/lib/string.h"
#include "kernel/process/cred.h"
#include "kernel/random.h"
#include "kernel/time/timekeeping.h"
#include "kernel/vdso/vvar.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

struct mutex keys_lock = MUTEX_INIT(keys_lock, "keys");
struct list_head key_list = LIST_HEAD_INIT(key_list);
struct list_head key_user_list = LIST_HEAD_INIT(key_user_list);

/* /proc/sys/kernel/keys: Linux's defaults. */
unsigned long key_quota_maxkeys = 200, key_quota_maxbytes = 20000;
unsigned long key_quota_root_maxkeys = 1000000, key_quota_root_maxbytes = 25000000;
unsigned long key_gc_delay = 300;
unsigned long persistent_keyring_expiry = 3 * 24 * 3600;

static const struct key_type *const key_types[] = { &key_type_keyring, &key_type_user,
						    &key_type_logon };

const struct key_type *
key_type_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(key_types); i++)
		if (strcmp(key_types[i]->name, name) == 0)
			return key_types[i];
	return NULL;
}

s64
key_now(void)
{
	return (s64)(timekeeping_read_ns(VVAR_CLOCK_REALTIME) / 1000000000ull);
}

struct key_user *
key_user_get(u32 uid)
{
	struct list_head *pos;

	list_for_each(pos, &key_user_list) {
		struct key_user *user = list_entry(pos, struct key_user, link);
		if (user->uid == uid) {
			user->usage++;
			return user;
		}
	}
	struct key_user *user = kzalloc(sizeof(*user));
	if (!user)
		return NULL;
	user->uid = uid;
	user->usage = 1;
	list_add_tail(&user->link, &key_user_list);
	return user;
}

void
key_user_put(struct key_user *user)
{
	if (--user->usage == 0) {
		list_del(&user->link);
		kfree(user);
	}
}

static bool
quota_allows(const struct key_user *user, int keys, size_t bytes)
{
	unsigned long maxkeys = user->uid ? key_quota_maxkeys : key_quota_root_maxkeys;
	unsigned long maxbytes = user->uid ? key_quota_maxbytes : key_quota_root_maxbytes;

	return (unsigned long)user->qnkeys + (unsigned long)keys <= maxkeys &&
	       (unsigned long)user->qnbytes + bytes <= maxbytes;
}

/* A fresh serial: random, positive, at least 3 and not in use; the key goes into the list in order. */
static void
key_assign_serial(struct key *key)
{
	struct list_head *pos;
	s32 serial;

	do {
		get_random_bytes(&serial, sizeof(serial));
		serial = (s32)((u32)serial >> 1);
	} while (serial < 3 || key_find_serial(serial));
	key->serial = serial;
	list_for_each(pos, &key_list)
		if (list_entry(pos, struct key, link)->serial > serial)
			break;
	list_insert_between(&key->link, pos->prev, pos);
}

struct key *
key_alloc(const struct key_type *type, const char *desc, u32 uid, u32 gid, u32 perm,
	  enum key_quota quota, int *err)
{
	size_t desclen = strlen(desc);
	struct key_user *user = key_user_get(uid);
	struct key *key = kzalloc(sizeof(*key));
	char *description = kmalloc(desclen + 1);

	*err = -ENOMEM;
	if (!user || !key || !description)
		goto fail;
	*err = -EDQUOT;
	if (quota == KEY_QUOTA_CHARGE && !quota_allows(user, 1, desclen + 1))
		goto fail;
	memcpy(description, desc, desclen + 1);
	key->type = type;
	key->description = description;
	key->uid = uid;
	key->gid = gid;
	key->perm = perm;
	key->user = user;
	key->usage = 1;
	key->quotalen = (u32)desclen + 1;
	if (quota != KEY_QUOTA_NONE) {
		key->flags |= KEY_FLAG_IN_QUOTA;
		user->qnkeys++;
		user->qnbytes += key->quotalen;
	}
	user->nkeys++;
	key_assign_serial(key);
	return key;
fail:
	if (user)
		key_user_put(user);
	kfree(key);
	kfree(description);
	return NULL;
}

int
key_payload_reserve(struct key *key, size_t len)
{
	u32 want = (u32)strlen(key->description) + 1 + (u32)len;

	if (key->flags & KEY_FLAG_IN_QUOTA) {
		if (want > key->quotalen && !quota_allows(key->user, 0, want - key->quotalen))
			return -EDQUOT;
		key->user->qnbytes = key->user->qnbytes - key->quotalen + want;
	}
	key->quotalen = want;
	return 0;
}

int
key_instantiate(struct key *key, const void *data, size_t len)
{
	int err = key->type->instantiate(key, data, len);

	if (err)
		return err;
	key->flags |= KEY_FLAG_INSTANTIATED;
	key->user->nikeys++;
	return 0;
}

void
key_negate(struct key *key, int error)
{
	key->flags |= KEY_FLAG_INSTANTIATED | KEY_FLAG_NEGATIVE;
	key->reject_error = error;
	key->expiry = key_now() + KEY_NEGATIVE_TIMEOUT;
	key->user->nikeys++;
}

struct key *
key_get(struct key *key)
{
	if (key)
		key->usage++;
	return key;
}

/* A user keyring that dies or changes hands is no longer its user's: the next use makes another. */
static void
forget_user_keyring(const struct key *key)
{
	if (key->user->uid_keyring == key)
		key->user->uid_keyring = NULL;
	if (key->user->session_keyring == key)
		key->user->session_keyring = NULL;
	if (key->user->persistent_keyring == key)
		key->user->persistent_keyring = NULL;
}

static void
key_destroy(struct key *key)
{
	struct key_user *user = key->user;

	list_del(&key->link);
	key->flags |= KEY_FLAG_DEAD;
	forget_user_keyring(key);
	if (key->type->destroy)
		key->type->destroy(key);
	if (key->flags & KEY_FLAG_IN_QUOTA) {
		user->qnkeys--;
		user->qnbytes -= key->quotalen;
	}
	user->nkeys--;
	if (key->flags & KEY_FLAG_INSTANTIATED)
		user->nikeys--;
	key_user_put(user);
	kfree(key->description);
	kfree(key);
}

void
key_put(struct key *key)
{
	if (key && --key->usage == 0)
		key_destroy(key);
}

struct key *
key_find_serial(s32 serial)
{
	struct list_head *pos;

	list_for_each(pos, &key_list) {
		struct key *key = list_entry(pos, struct key, link);
		if (key->serial == serial)
			return key;
		if (key->serial > serial)
			break;
	}
	return NULL;
}

bool
key_is_positive(const struct key *key)
{
	return (key->flags & (KEY_FLAG_INSTANTIATED | KEY_FLAG_NEGATIVE)) == KEY_FLAG_INSTANTIATED;
}

int
key_validate(const struct key *key)
{
	if (key->flags & (KEY_FLAG_REVOKED | KEY_FLAG_INVALIDATED | KEY_FLAG_DEAD))
		return -EKEYREVOKED;
	if (key->expiry && key_now() >= key->expiry)
		return -EKEYEXPIRED;
	return 0;
}

/*
 * The owner's byte if the caller's fsuid owns the key, else the group's
 * if the key has a group byte and the caller is in its group, else the
 * other's; a possessor adds the possessor's byte. Root has no override
 * here: its powers are in the calls that ask CAP_SYS_ADMIN.
 */
int
key_permission(const struct key *key, bool possessed, unsigned need)
{
	u32 kperm;

	if (key->uid == current_fsuid())
		kperm = key->perm >> 16;
	else if ((key->perm & KEY_GRP_ALL) && in_group_p(key->gid))
		kperm = key->perm >> 8;
	else
		kperm = key->perm;
	if (possessed)
		kperm |= key->perm >> 24;
	return (kperm & need & 0x3f) == need ? 0 : -EACCES;
}

void
key_revoke(struct key *key)
{
	if (key->flags & KEY_FLAG_REVOKED)
		return;
	key->flags |= KEY_FLAG_REVOKED;
	if (key->type->revoke)
		key->type->revoke(key);
}

void
key_invalidate(struct key *key)
{
	if (key->flags & KEY_FLAG_INVALIDATED)
		return;
	key->flags |= KEY_FLAG_INVALIDATED;
	keyring_unlink_everywhere(key);
}

int
key_change_owner(struct key *key, u32 uid)
{
	if (key->uid == uid)
		return 0;
	struct key_user *user = key_user_get(uid);
	if (!user)
		return -ENOMEM;
	if ((key->flags & KEY_FLAG_IN_QUOTA) && !quota_allows(user, 1, key->quotalen)) {
		key_user_put(user);
		return -EDQUOT;
	}
	struct key_user *old = key->user;
	forget_user_keyring(key);
	if (key->flags & KEY_FLAG_IN_QUOTA) {
		old->qnkeys--;
		old->qnbytes -= key->quotalen;
		user->qnkeys++;
		user->qnbytes += key->quotalen;
	}
	old->nkeys--;
	user->nkeys++;
	if (key->flags & KEY_FLAG_INSTANTIATED) {
		old->nikeys--;
		user->nikeys++;
	}
	key->user = user;
	key->uid = uid;
	key_user_put(old);
	return 0;
}
