/*
 * keyring.c - the "keyring" key type (Linux's security/keys/keyring.c):
 * a key whose payload is links to other keys, at most one per type and
 * description (linking a second replaces the first), searched by type
 * and description through the keyrings it links in turn, as deep as
 * KEYRING_MAX_DEPTH. A link holds a reference and costs its keyring's
 * owner 4 bytes of quota, as Linux's KEYQUOTA_LINK_BYTES.
 */
#include "kernel/keys/key.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

#define KEYRING_LINK_BYTES 4

static int
keyring_instantiate(struct key *key, const void *data, size_t len)
{
	if (len)
		return -EINVAL;
	key->payload = kzalloc(sizeof(struct keyring_links));
	return key->payload ? 0 : -ENOMEM;
}

static struct keyring_links *
links_of(const struct key *keyring)
{
	return keyring->payload;
}

static void
keyring_destroy(struct key *keyring)
{
	struct keyring_links *links = links_of(keyring);

	if (!links)
		return;
	keyring->payload = NULL;
	for (int i = 0; i < links->count; i++)
		key_put(links->keys[i]);
	kfree(links->keys);
	kfree(links);
}

/* The serials of the linked keys: their byte count, copied when buflen holds them all. */
static long
keyring_read(const struct key *keyring, char *buf, size_t buflen)
{
	const struct keyring_links *links = links_of(keyring);
	size_t len = (size_t)links->count * sizeof(s32);

	if (buf && buflen >= len)
		for (int i = 0; i < links->count; i++)
			memcpy(buf + i * sizeof(s32), &links->keys[i]->serial, sizeof(s32));
	return (long)len;
}

const struct key_type key_type_keyring = {
	.name = "keyring",
	.instantiate = keyring_instantiate,
	.read = keyring_read,
	.destroy = keyring_destroy,
};

struct key *
keyring_alloc(const char *desc, u32 uid, u32 gid, u32 perm, enum key_quota quota, int *err)
{
	struct key *keyring = key_alloc(&key_type_keyring, desc, uid, gid, perm, quota, err);

	if (keyring && (*err = key_instantiate(keyring, NULL, 0)) != 0) {
		key_put(keyring);
		return NULL;
	}
	return keyring;
}

static int
find_link(const struct keyring_links *links, const struct key_type *type, const char *desc)
{
	for (int i = 0; i < links->count; i++)
		if (links->keys[i]->type == type && strcmp(links->keys[i]->description, desc) == 0)
			return i;
	return -1;
}

/* How deep the keyrings under keyring go (1: none), or -EDEADLK if target is among them. */
static int
keyring_depth(const struct key *keyring, const struct key *target)
{
	const struct keyring_links *links = links_of(keyring);
	int deepest = 0;

	if (keyring == target)
		return -EDEADLK;
	for (int i = 0; links && i < links->count; i++) {
		if (links->keys[i]->type != &key_type_keyring)
			continue;
		int d = keyring_depth(links->keys[i], target);
		if (d < 0)
			return d;
		deepest = MAX(deepest, d);
	}
	return deepest + 1;
}

static int
grow_links(struct keyring_links *links)
{
	if (links->count < links->capacity)
		return 0;
	int capacity = links->capacity ? links->capacity * 2 : 8;
	struct key **keys = kmalloc(sizeof(*keys) * (size_t)capacity);
	if (!keys)
		return -ENOMEM;
	if (links->count)
		memcpy(keys, links->keys, sizeof(*keys) * (size_t)links->count);
	kfree(links->keys);
	links->keys = keys;
	links->capacity = capacity;
	return 0;
}

int
keyring_link(struct key *keyring, struct key *key)
{
	if (keyring->type != &key_type_keyring)
		return -ENOTDIR;
	if (keyring->flags & KEY_FLAG_RESTRICTED)
		return -EPERM;
	if (key->type == &key_type_keyring) {
		int depth = keyring_depth(key, keyring);
		if (depth < 0)
			return depth;
		if (depth >= KEYRING_MAX_DEPTH)
			return -ELOOP;
	}
	struct keyring_links *links = links_of(keyring);
	int i = find_link(links, key->type, key->description);
	if (i >= 0) {
		struct key *old = links->keys[i];
		links->keys[i] = key_get(key);
		key_put(old);
		return 0;
	}
	int err = grow_links(links);
	if (!err)
		err = key_payload_reserve(keyring, (size_t)(links->count + 1) * KEYRING_LINK_BYTES);
	if (err)
		return err;
	links->keys[links->count++] = key_get(key);
	return 0;
}

int
keyring_unlink(struct key *keyring, struct key *key)
{
	if (keyring->type != &key_type_keyring)
		return -ENOTDIR;
	struct keyring_links *links = links_of(keyring);
	for (int i = 0; i < links->count; i++) {
		if (links->keys[i] != key)
			continue;
		links->keys[i] = links->keys[--links->count];
		key_payload_reserve(keyring, (size_t)links->count * KEYRING_LINK_BYTES);
		key_put(key);
		return 0;
	}
	return -ENOENT;
}

int
keyring_clear(struct key *keyring)
{
	if (keyring->type != &key_type_keyring)
		return -ENOTDIR;
	struct keyring_links *links = links_of(keyring);
	while (links->count)
		keyring_unlink(keyring, links->keys[links->count - 1]);
	return 0;
}

static bool
search_matches(const struct key *key, const struct key_search *ctx)
{
	if (ctx->target)
		return key == ctx->target;
	return key->type == ctx->type && strcmp(key->description, ctx->description) == 0;
}

/*
 * Whether a matching key may be the answer: revoked, expired, not
 * searchable or negative ones are passed over, their error kept as the
 * search's if nothing better comes (Linux's keyring_search_iterator).
 */
static bool
search_accepts(const struct key *key, bool possessed, struct key_search *ctx)
{
	int err = ctx->check_state ? key_validate(key) : 0;

	if (!err && key_permission(key, possessed, KEY_NEED_SEARCH))
		err = -EACCES;
	if (!err && ctx->check_state && (key->flags & KEY_FLAG_NEGATIVE))
		err = key->reject_error;
	if (err && !(err == -EKEYEXPIRED && ctx->skip_expired))
		ctx->error = err;
	return !err;
}

static struct key *
search_nested(struct key *keyring, bool possessed, struct key_search *ctx, int depth)
{
	const struct keyring_links *links = links_of(keyring);

	for (int i = 0; i < links->count; i++) {
		struct key *key = links->keys[i];
		if (search_matches(key, ctx) && search_accepts(key, possessed, ctx)) {
			ctx->possessed = possessed;
			return key;
		}
	}
	if (depth + 1 >= KEYRING_MAX_DEPTH)
		return NULL;
	for (int i = 0; i < links->count; i++) {
		struct key *nested = links->keys[i];
		if (nested->type != &key_type_keyring || key_validate(nested) ||
		    key_permission(nested, possessed, KEY_NEED_SEARCH))
			continue;
		struct key *found = search_nested(nested, possessed, ctx, depth + 1);
		if (found)
			return found;
	}
	return NULL;
}

struct key *
keyring_search(struct key *keyring, bool possessed, struct key_search *ctx)
{
	if (keyring->type != &key_type_keyring) {
		ctx->error = -ENOTDIR;
		return NULL;
	}
	if (key_permission(keyring, possessed, KEY_NEED_SEARCH)) {
		ctx->error = -EACCES;
		return NULL;
	}
	/* The keyring itself may be the answer (Linux's search_nested_keyrings): a process possesses its own keyrings. */
	if (search_matches(keyring, ctx) && search_accepts(keyring, possessed, ctx)) {
		ctx->possessed = possessed;
		return keyring;
	}
	return search_nested(keyring, possessed, ctx, 0);
}

struct key *
keyring_find_by_name(const char *name)
{
	struct list_head *pos;

	list_for_each(pos, &key_list) {
		struct key *key = list_entry(pos, struct key, link);
		if (key->type == &key_type_keyring && !(key->flags & KEY_FLAG_UID_KEYRING) &&
		    !key_validate(key) && strcmp(key->description, name) == 0 &&
		    !key_permission(key, false, KEY_NEED_SEARCH))
			return key;
	}
	return NULL;
}

void
keyring_unlink_everywhere(struct key *key)
{
	struct list_head *pos;

	list_for_each(pos, &key_list) {
		struct key *keyring = list_entry(pos, struct key, link);
		if (keyring->type == &key_type_keyring && keyring->payload)
			keyring_unlink(keyring, key);
	}
}
