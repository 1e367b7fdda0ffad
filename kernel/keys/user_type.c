/*
 * user_type.c - the "user" and "logon" key types (Linux's
 * security/keys/user_defined.c): a blob of 1 to 32767 bytes that
 * add_key gives and KEYCTL_UPDATE replaces. A "logon" key's description
 * is "service:name" and its payload is for the kernel only: KEYCTL_READ
 * answers EOPNOTSUPP. Revoking either frees the payload.
 */
#include "kernel/keys/key.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

#define USER_PAYLOAD_MAX 32767

struct user_payload {
	size_t len;
	char data[];
};

static int
user_instantiate(struct key *key, const void *data, size_t len)
{
	if (!data || len == 0 || len > USER_PAYLOAD_MAX)
		return -EINVAL;
	const struct user_payload *old = key->payload;
	int err = key_payload_reserve(key, len);
	if (err)
		return err;
	struct user_payload *p = kmalloc(sizeof(*p) + len);
	if (!p) {
		key_payload_reserve(key, old ? old->len : 0);
		return -ENOMEM;
	}
	p->len = len;
	memcpy(p->data, data, len);
	kfree(key->payload);
	key->payload = p;
	return 0;
}

static void
user_destroy(struct key *key)
{
	kfree(key->payload);
	key->payload = NULL;
}

static void
user_revoke(struct key *key)
{
	key_payload_reserve(key, 0);
	user_destroy(key);
}

static long
user_read(const struct key *key, char *buf, size_t buflen)
{
	const struct user_payload *p = key->payload;

	if (!p)
		return -EKEYREVOKED;
	if (buf && buflen >= p->len)
		memcpy(buf, p->data, p->len);
	return (long)p->len;
}

/* "service:name": a colon, not first. */
static int
logon_vet_description(const char *desc)
{
	const char *colon = strchr(desc, ':');

	return colon && colon != desc ? 0 : -EINVAL;
}

const struct key_type key_type_user = {
	.name = "user",
	.instantiate = user_instantiate,
	.update = user_instantiate,
	.read = user_read,
	.destroy = user_destroy,
	.revoke = user_revoke,
};

const struct key_type key_type_logon = {
	.name = "logon",
	.instantiate = user_instantiate,
	.update = user_instantiate,
	.vet_description = logon_vet_description,
	.destroy = user_destroy,
	.revoke = user_revoke,
};
