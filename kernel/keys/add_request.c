/*
 * add_request.c - add_key(2) and request_key(2) (Linux's
 * security/keys/keyctl.c, key.c's key_create_or_update and
 * request_key.c), and the copying in of a type name and a description
 * that keyctl shares.
 *
 * add_key makes a key and links it into a keyring, or updates the one of
 * the same type and description already linked there. request_key finds
 * a key through the caller's keyrings; when there is none and a callout
 * is given, Linux runs /sbin/request-key to make it. rewind has no such
 * upcall, so it does what Linux does when that program is absent: the
 * new key is made negative (ENOKEY to searches for a minute) and linked
 * where it would have been, and the call fails with ENOENT.
 */
#include "kernel/keys/key.h"
#include "kernel/lib/string.h"
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "mm/vmap.h"
#include "uapi/errno.h"

#define ADD_KEY_PAYLOAD_MAX (1024 * 1024 - 1)

int
key_type_name_from_user(char name[KEY_TYPE_NAME_SIZE], const char __user *u)
{
	long len = strncpy_from_user(name, u, KEY_TYPE_NAME_SIZE);

	if (len == -ENAMETOOLONG || len == 0)
		return -EINVAL;
	if (len < 0)
		return (int)len;
	return name[0] == '.' ? -EPERM : 0;
}

char *
key_string_from_user(const char __user *u, size_t max, int *err)
{
	char *s = kmalloc(max);
	long len;

	*err = -ENOMEM;
	if (!s)
		return NULL;
	len = strncpy_from_user(s, u, max);
	*err = len == -ENAMETOOLONG ? -EINVAL : (int)MIN(len, 0);
	if (*err) {
		kfree(s);
		return NULL;
	}
	return s;
}

void
key_payload_free(void *p, size_t len)
{
	if (p && len > KMALLOC_MAX_SMALL * 2)
		vfree(p, len);
	else
		kfree(p);
}

void *
key_payload_from_user(const void __user *u, size_t len, int *err)
{
	*err = 0;
	if (!len)
		return NULL;
	void *p = len > KMALLOC_MAX_SMALL * 2 ? vmalloc(len) : kmalloc(len);
	*err = -ENOMEM;
	if (!p)
		return NULL;
	*err = copy_from_user(p, u, len) ? -EFAULT : 0;
	if (*err) {
		key_payload_free(p, len);
		return NULL;
	}
	return p;
}

/* The key of type and description linked in keyring that add_key may update, or NULL. */
static struct key *
key_to_update(struct key *keyring, const struct key_type *type, const char *desc)
{
	const struct keyring_links *links = keyring->payload;

	for (int i = 0; i < links->count; i++) {
		struct key *key = links->keys[i];
		if (key->type == type && strcmp(key->description, desc) == 0 &&
		    !(key->flags & (KEY_FLAG_REVOKED | KEY_FLAG_INVALIDATED)))
			return key;
	}
	return NULL;
}

/* A user key's default permissions (Linux's KEY_PERM_UNDEF in add_key). */
static u32
default_perm(const struct key_type *type)
{
	u32 perm = KEY_POS_VIEW | KEY_POS_SEARCH | KEY_POS_LINK | KEY_POS_SETATTR | KEY_USR_VIEW;

	if (type->read)
		perm |= KEY_POS_READ;
	if (type == &key_type_keyring || type->update)
		perm |= KEY_POS_WRITE;
	return perm;
}

/* key_create_or_update under keys_lock: the key's serial, or -errno. */
static long
create_or_update(struct key *keyring, bool possessed, const char *typename, const char *desc,
		 const void *payload, size_t plen)
{
	const struct key_type *type = key_type_find(typename);
	int err;

	if (!type)
		return -ENODEV;
	if (keyring->type != &key_type_keyring)
		return -ENOTDIR;
	if (type == &key_type_keyring && plen)
		return -EINVAL; /* the type's preparse, before anything else */
	if (type != &key_type_keyring && (!payload || plen > 32767))
		return -EINVAL;
	if (!desc || (type->vet_description && type->vet_description(desc)))
		return -EINVAL;
	if (keyring->flags & KEY_FLAG_RESTRICTED)
		return -EPERM;
	err = key_permission(keyring, possessed, KEY_NEED_WRITE);
	if (err)
		return err;
	struct key *key = type->update ? key_to_update(keyring, type, desc) : NULL;
	if (key) {
		err = key_permission(key, possessed, KEY_NEED_WRITE);
		if (!err)
			err = type->update(key, payload, plen);
		if (!err)
			key->flags &= ~(u32)KEY_FLAG_NEGATIVE;
		return err ? err : key->serial;
	}
	key = key_alloc(type, desc, current_fsuid(), current_fsgid(), default_perm(type),
			KEY_QUOTA_CHARGE, &err);
	if (!key)
		return err;
	err = key_instantiate(key, payload, plen);
	if (!err)
		err = keyring_link(keyring, key);
	long ret = err ? err : key->serial;
	key_put(key);
	return ret;
}

SYSCALL5(add_key, const char __user *, utype, const char __user *, udesc, const void __user *,
	 upayload, size_t, plen, s32, ringid)
{
	char type[KEY_TYPE_NAME_SIZE];
	char *desc = NULL;
	void *payload = NULL;
	int err;

	if (plen > ADD_KEY_PAYLOAD_MAX)
		return -EINVAL;
	err = key_type_name_from_user(type, utype);
	if (err)
		return err;
	if (udesc) {
		desc = key_string_from_user(udesc, KEY_MAX_DESC_SIZE, &err);
		if (!desc)
			return err;
		if (!desc[0]) {
			kfree(desc);
			desc = NULL;
		} else if (desc[0] == '.' && strcmp(type, "keyring") == 0) {
			kfree(desc);
			return -EPERM;
		}
	}
	payload = key_payload_from_user(upayload, plen, &err);
	long ret = err;
	if (!err) {
		bool possessed;
		mutex_lock(&keys_lock);
		struct key *keyring = lookup_user_key(ringid, KEY_LOOKUP_CREATE, KEY_NEED_WRITE,
						      &possessed, &err);
		ret = keyring ? create_or_update(keyring, possessed, type, desc, payload, plen)
			      : err;
		key_put(keyring);
		mutex_unlock(&keys_lock);
	}
	key_payload_free(payload, plen);
	kfree(desc);
	return ret;
}

/*
 * No /sbin/request-key: the key request_key would have had made is
 * linked negative where it was to go, and the caller hears ENOENT, as on
 * Linux without that program (construct_key_and_link, then
 * key_negate_and_link). Keyrings are never made this way (EPERM).
 */
static long
construct_negative(const struct key_type *type, const char *desc, struct key *dest)
{
	int err = 0;

	if (type == &key_type_keyring)
		return -EPERM;
	struct key *keyring = dest ? key_get(dest) : reqkey_default_keyring(&err);
	if (!keyring)
		return err;
	struct key *key =
		key_alloc(type, desc, current_fsuid(), current_fsgid(),
			  KEY_POS_ALL | KEY_USR_VIEW | KEY_USR_READ, KEY_QUOTA_CHARGE, &err);
	if (key) {
		key_negate(key, -ENOKEY);
		err = keyring_link(keyring, key);
		key_put(key);
	}
	key_put(keyring);
	return err ? err : -ENOENT;
}

static long
request_key_locked(const char *typename, const char *desc, const char *callout, s32 destid)
{
	struct key *dest = NULL;
	bool possessed;
	int err;

	if (destid) {
		dest = lookup_user_key(destid, KEY_LOOKUP_CREATE, KEY_NEED_WRITE, &possessed, &err);
		if (!dest)
			return err;
	}
	const struct key_type *type = key_type_find(typename);
	struct key_search ctx = {
		.type = type, .description = desc, .check_state = true, .skip_expired = true
	};
	struct key *key = type ? search_process_keyrings(&ctx) : NULL;
	long ret;
	if (!type)
		ret = -ENOKEY;
	else if (key) {
		ret = dest ? key_permission(key, ctx.possessed, KEY_NEED_LINK) : 0;
		if (!ret && dest)
			ret = keyring_link(dest, key);
		if (!ret)
			ret = key->serial;
	} else if (ctx.error != -EAGAIN)
		ret = ctx.error;
	else
		ret = callout ? construct_negative(type, desc, dest) : -ENOKEY;
	key_put(dest);
	return ret;
}

SYSCALL4(request_key, const char __user *, utype, const char __user *, udesc, const char __user *,
	 ucallout, s32, destid)
{
	char type[KEY_TYPE_NAME_SIZE];
	char *desc, *callout = NULL;
	int err = key_type_name_from_user(type, utype);

	if (err)
		return err;
	desc = key_string_from_user(udesc, KEY_MAX_DESC_SIZE, &err);
	if (!desc)
		return err;
	if (ucallout && !(callout = key_string_from_user(ucallout, PAGE_SIZE, &err))) {
		kfree(desc);
		return err;
	}
	mutex_lock(&keys_lock);
	long ret = request_key_locked(type, desc, callout, destid);
	mutex_unlock(&keys_lock);
	kfree(callout);
	kfree(desc);
	return ret;
}
