/*
 * keyctl.c - keyctl(2), the key retention service's one call for
 * everything after add_key (Linux's security/keys/keyctl.c): finding
 * keyrings, changing keys (update, revoke, invalidate, owner,
 * permissions, timeout), describing and reading them, linking and
 * searching keyrings, the session and the request_key default.
 *
 * Each command looks its key up with the permission Linux asks, under
 * keys_lock; what it copies out goes to user memory after the lock is
 * let go. The commands of request_key's upcall (instantiate, negate,
 * reject, assume authority) answer as Linux does for a caller that holds
 * no authorisation key, which is every caller here.
 */
#include "kernel/keys/key.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

#define KEY_INSTANTIATE_MAX (1024 * 1024 - 1)
#define ERRNO_MAX	    4095

/* What a command has to copy out once keys_lock is let go: len bytes of buf. */
struct key_reply {
	char *buf;
	size_t len;
};

static long
get_keyring_id(s32 id, bool create)
{
	bool possessed;
	int err;
	struct key *key = lookup_user_key(id, create ? KEY_LOOKUP_CREATE : 0, 0, &possessed, &err);

	if (!key)
		return err;
	long serial = key->serial;
	key_put(key);
	return serial;
}

static long
update_key(s32 id, const void *payload, size_t plen)
{
	bool possessed;
	int err;
	struct key *key = lookup_user_key(id, 0, KEY_NEED_WRITE, &possessed, &err);

	if (!key)
		return err;
	err = key->type->update ? key->type->update(key, payload, plen) : -EOPNOTSUPP;
	key_put(key);
	return err;
}

/* Revoking takes write permission or, lacking it, setattr (Linux's keyctl_revoke_key). */
static long
revoke_key(s32 id)
{
	bool possessed;
	int err;
	struct key *key = lookup_user_key(id, 0, KEY_NEED_WRITE, &possessed, &err);

	if (!key && err == -EACCES)
		key = lookup_user_key(id, 0, KEY_NEED_SETATTR, &possessed, &err);
	if (!key)
		return err;
	key_revoke(key);
	key_put(key);
	return 0;
}

static long
invalidate_key(s32 id)
{
	bool possessed;
	int err;
	struct key *key = lookup_user_key(id, 0, KEY_NEED_SEARCH, &possessed, &err);

	if (!key)
		return err;
	key_invalidate(key);
	key_put(key);
	return 0;
}

/*
 * A user may give its key to a group it is in; only CAP_SYS_ADMIN gives
 * a key to another user (whose quota then pays for it) or group.
 */
static long
chown_key(s32 id, u32 uid, u32 gid)
{
	bool possessed;
	int err;

	if (uid == (u32)-1 && gid == (u32)-1)
		return 0;
	struct key *key = lookup_user_key(id, KEY_LOOKUP_CREATE | KEY_LOOKUP_PARTIAL,
					  KEY_NEED_SETATTR, &possessed, &err);
	if (!key)
		return err;
	err = 0;
	if (!capable(CAP_SYS_ADMIN) &&
	    ((uid != (u32)-1 && uid != key->uid) || (gid != (u32)-1 && !in_group_p(gid))))
		err = -EACCES;
	if (!err && uid != (u32)-1)
		err = key_change_owner(key, uid);
	if (!err && gid != (u32)-1)
		key->gid = gid;
	key_put(key);
	return err;
}

static long
setperm_key(s32 id, u32 perm)
{
	bool possessed;
	int err;

	if (perm & ~(u32)KEY_PERM_ALL_CLASSES)
		return -EINVAL;
	struct key *key = lookup_user_key(id, KEY_LOOKUP_CREATE | KEY_LOOKUP_PARTIAL,
					  KEY_NEED_SETATTR, &possessed, &err);
	if (!key)
		return err;
	err = capable(CAP_SYS_ADMIN) || key->uid == current_fsuid() ? 0 : -EACCES;
	if (!err)
		key->perm = perm;
	key_put(key);
	return err;
}

static long
set_timeout(s32 id, unsigned timeout)
{
	bool possessed;
	int err;
	struct key *key = lookup_user_key(id, KEY_LOOKUP_CREATE | KEY_LOOKUP_PARTIAL,
					  KEY_NEED_SETATTR, &possessed, &err);

	if (!key)
		return err;
	key->expiry = timeout ? key_now() + timeout : 0;
	key_put(key);
	return 0;
}

/* "type;uid;gid;perm;description", with its NUL: its length. */
static long
describe_key(s32 id, struct key_reply *reply)
{
	bool possessed;
	int err;
	struct key *key = lookup_user_key(id, KEY_LOOKUP_PARTIAL, KEY_NEED_VIEW, &possessed, &err);

	if (!key)
		return err;
	const char *fmt = "%s;%d;%d;%08x;%s";
	int len = ksnprintf(NULL, 0, fmt, key->type->name, key_shown_id(key->uid),
			    key_shown_id(key->gid), key->perm, key->description) +
		  1;
	reply->buf = kmalloc((size_t)len);
	if (reply->buf) {
		ksnprintf(reply->buf, (size_t)len, fmt, key->type->name, key_shown_id(key->uid),
			  key_shown_id(key->gid), key->perm, key->description);
		reply->len = (size_t)len;
	}
	key_put(key);
	return reply->buf ? len : -ENOMEM;
}

/* No security module labels keys: the label is the empty string. */
static long
get_security(s32 id, struct key_reply *reply)
{
	bool possessed;
	int err;
	struct key *key = lookup_user_key(id, KEY_LOOKUP_PARTIAL, KEY_NEED_VIEW, &possessed, &err);

	if (!key)
		return err;
	key_put(key);
	reply->buf = kzalloc(1);
	reply->len = 1;
	return reply->buf ? 1 : -ENOMEM;
}

/*
 * The payload's length; the bytes too when buflen holds them all. Read
 * permission, or possession, as Linux's keyctl_read_key: a key the
 * caller reaches through its own keyrings is readable by it.
 */
static long
read_key(s32 id, size_t buflen, struct key_reply *reply)
{
	bool possessed;
	int err;
	struct key *key = lookup_user_key(id, 0, 0, &possessed, &err);

	if (!key)
		return -ENOKEY;
	long ret = (key->flags & KEY_FLAG_NEGATIVE) ? key->reject_error : 0;
	if (!ret && key_permission(key, possessed, KEY_NEED_READ) && !possessed)
		ret = -EACCES;
	if (!ret && !key->type->read)
		ret = -EOPNOTSUPP;
	if (!ret)
		ret = key_validate(key);
	if (!ret)
		ret = key->type->read(key, NULL, 0);
	if (ret > 0 && buflen >= (size_t)ret) {
		reply->buf = kmalloc((size_t)ret);
		if (reply->buf) {
			key->type->read(key, reply->buf, (size_t)ret);
			reply->len = (size_t)ret;
		} else {
			ret = -ENOMEM;
		}
	}
	key_put(key);
	return ret;
}

static long
link_key(s32 id, s32 ringid, bool unlink)
{
	bool possessed;
	int err;
	struct key *keyring = lookup_user_key(ringid, unlink ? 0 : KEY_LOOKUP_CREATE,
					      KEY_NEED_WRITE, &possessed, &err);

	if (!keyring)
		return err;
	struct key *key =
		unlink ? lookup_user_key(id, KEY_LOOKUP_PARTIAL, 0, &possessed, &err)
		       : lookup_user_key(id, KEY_LOOKUP_CREATE, KEY_NEED_LINK, &possessed, &err);
	if (key)
		err = unlink ? keyring_unlink(keyring, key) : keyring_link(keyring, key);
	key_put(key);
	key_put(keyring);
	return err;
}

static long
clear_keyring(s32 ringid)
{
	bool possessed;
	int err;
	struct key *keyring =
		lookup_user_key(ringid, KEY_LOOKUP_CREATE, KEY_NEED_WRITE, &possessed, &err);

	if (!keyring)
		return err;
	err = keyring_clear(keyring);
	key_put(keyring);
	return err;
}

/* KEYCTL_SEARCH under keys_lock: the key found in ringid's tree, linked into destid if given. */
static long
search_keyring(s32 ringid, const char *typename, const char *desc, s32 destid)
{
	struct key *dest = NULL, *keyring;
	bool possessed, dest_possessed;
	int err;

	keyring = lookup_user_key(ringid, 0, KEY_NEED_SEARCH, &possessed, &err);
	if (!keyring)
		return err;
	if (destid && !(dest = lookup_user_key(destid, KEY_LOOKUP_CREATE, KEY_NEED_WRITE,
					       &dest_possessed, &err))) {
		key_put(keyring);
		return err;
	}
	const struct key_type *type = key_type_find(typename);
	struct key_search ctx = { .type = type, .description = desc, .check_state = true };
	struct key *key = type ? keyring_search(keyring, possessed, &ctx) : NULL;
	long ret = -ENOKEY;
	if (key) {
		ret = dest ? key_permission(key, ctx.possessed, KEY_NEED_LINK) : 0;
		if (!ret && dest)
			ret = keyring_link(dest, key);
		if (!ret)
			ret = key->serial;
	} else if (type && ctx.error != -EAGAIN) {
		ret = ctx.error;
	}
	key_put(dest);
	key_put(keyring);
	return ret;
}

/*
 * KEYCTL_RESTRICT_KEYRING: with no type, the keyring takes no more links
 * (EPERM); the restriction schemes of Linux's key types are not here.
 */
static long
restrict_keyring(s32 id, const char __user *utype, const char __user *urestriction)
{
	char type[KEY_TYPE_NAME_SIZE];
	bool possessed;
	int err;

	if (utype) {
		err = key_type_name_from_user(type, utype);
		return err ? err : key_type_find(type) ? -ENOENT : -ENOKEY;
	}
	if (urestriction)
		return -EINVAL;
	mutex_lock(&keys_lock);
	struct key *keyring = lookup_user_key(id, 0, KEY_NEED_SETATTR, &possessed, &err);
	if (keyring) {
		err = keyring->type != &key_type_keyring     ? -ENOTDIR
		      : keyring->flags & KEY_FLAG_RESTRICTED ? -EEXIST
							     : 0;
		if (!err)
			keyring->flags |= KEY_FLAG_RESTRICTED;
		key_put(keyring);
	}
	mutex_unlock(&keys_lock);
	return err;
}

static long
join_session(const char __user *uname)
{
	char *name = NULL;
	int err;

	if (uname) {
		name = key_string_from_user(uname, KEY_MAX_DESC_SIZE, &err);
		if (!name)
			return err;
		if (name[0] == '.') {
			kfree(name); /* the kernel's own keyrings are not to be joined */
			return -EPERM;
		}
	}
	mutex_lock(&keys_lock);
	long ret = join_session_keyring(name);
	mutex_unlock(&keys_lock);
	kfree(name);
	return ret;
}

static long
keyctl_update(s32 id, const void __user *upayload, size_t plen)
{
	int err;

	if (plen > PAGE_SIZE)
		return -EINVAL;
	void *payload = key_payload_from_user(upayload, plen, &err);
	if (err)
		return err;
	mutex_lock(&keys_lock);
	long ret = update_key(id, payload, plen);
	mutex_unlock(&keys_lock);
	key_payload_free(payload, plen);
	return ret;
}

static long
keyctl_search(s32 ringid, const char __user *utype, const char __user *udesc, s32 destid)
{
	char type[KEY_TYPE_NAME_SIZE];
	int err = key_type_name_from_user(type, utype);

	if (err)
		return err;
	char *desc = key_string_from_user(udesc, KEY_MAX_DESC_SIZE, &err);
	if (!desc)
		return err;
	mutex_lock(&keys_lock);
	long ret = search_keyring(ringid, type, desc, destid);
	mutex_unlock(&keys_lock);
	kfree(desc);
	return ret;
}

/* The commands of request_key's upcall: a caller holding no authorisation key may not use them. */
static long
keyctl_upcall(int cmd, unsigned long arg2, unsigned long arg3, unsigned long arg4)
{
	switch (cmd) {
	case KEYCTL_INSTANTIATE:
	case KEYCTL_INSTANTIATE_IOV:
		return cmd == KEYCTL_INSTANTIATE && arg4 > KEY_INSTANTIATE_MAX ? -EINVAL : -EPERM;
	case KEYCTL_REJECT:
		if (arg4 == 0 || arg4 > ERRNO_MAX)
			return -EINVAL;
		return -EPERM;
	case KEYCTL_NEGATE:
		return -EPERM;
	default: /* KEYCTL_ASSUME_AUTHORITY */
		if ((s32)arg2 < 0)
			return -EINVAL;
		return (s32)arg2 == 0 ? 0 : -ENOKEY;
	}
}

/* The commands that look at or change one key or keyring, under keys_lock. */
static long
keyctl_locked(int cmd, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	      struct key_reply *reply)
{
	s32 id = (s32)arg2;

	switch (cmd) {
	case KEYCTL_GET_KEYRING_ID:
		return get_keyring_id(id, arg3 != 0);
	case KEYCTL_REVOKE:
		return revoke_key(id);
	case KEYCTL_INVALIDATE:
		return invalidate_key(id);
	case KEYCTL_CHOWN:
		return chown_key(id, (u32)arg3, (u32)arg4);
	case KEYCTL_SETPERM:
		return setperm_key(id, (u32)arg3);
	case KEYCTL_SET_TIMEOUT:
		return set_timeout(id, (unsigned)arg3);
	case KEYCTL_DESCRIBE:
		return describe_key(id, reply);
	case KEYCTL_GET_SECURITY:
		return get_security(id, reply);
	case KEYCTL_READ:
		return read_key(id, arg3 ? arg4 : 0, reply);
	case KEYCTL_CLEAR:
		return clear_keyring(id);
	case KEYCTL_LINK:
		return link_key(id, (s32)arg3, false);
	case KEYCTL_UNLINK:
		return link_key(id, (s32)arg3, true);
	case KEYCTL_SET_REQKEY_KEYRING:
		return keys_set_reqkey_keyring((int)arg2);
	case KEYCTL_GET_PERSISTENT:
		return keys_get_persistent((u32)arg2, (s32)arg3);
	default:
		return -EOPNOTSUPP;
	}
}

/* The command's reply copied out: all of it when the buffer holds it, else nothing. */
static long
copy_reply(long ret, const struct key_reply *reply, void __user *buf, size_t buflen)
{
	if (ret > 0 && reply->buf && buf && buflen >= reply->len &&
	    copy_to_user(buf, reply->buf, reply->len))
		ret = -EFAULT;
	kfree(reply->buf);
	return ret;
}

SYSCALL5(keyctl, int, cmd, unsigned long, arg2, unsigned long, arg3, unsigned long, arg4,
	 unsigned long, arg5)
{
	switch (cmd) {
	case KEYCTL_JOIN_SESSION_KEYRING:
		return join_session((const char __user *)arg2);
	case KEYCTL_UPDATE:
		return keyctl_update((s32)arg2, (const void __user *)arg3, arg4);
	case KEYCTL_SEARCH:
		return keyctl_search((s32)arg2, (const char __user *)arg3,
				     (const char __user *)arg4, (s32)arg5);
	case KEYCTL_RESTRICT_KEYRING:
		return restrict_keyring((s32)arg2, (const char __user *)arg3,
					(const char __user *)arg4);
	case KEYCTL_INSTANTIATE:
	case KEYCTL_INSTANTIATE_IOV:
	case KEYCTL_NEGATE:
	case KEYCTL_REJECT:
	case KEYCTL_ASSUME_AUTHORITY:
		return keyctl_upcall(cmd, arg2, arg3, arg4);
	default:
		break;
	}
	struct key_reply reply = { 0 };
	mutex_lock(&keys_lock);
	long ret = keyctl_locked(cmd, arg2, arg3, arg4, &reply);
	mutex_unlock(&keys_lock);
	return copy_reply(ret, &reply, (void __user *)arg3, arg4);
}
