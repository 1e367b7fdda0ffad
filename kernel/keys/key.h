/*
 * key.h - the key retention service's inside (Linux's security/keys/,
 * keyrings(7)): what a key is, the types, and what the files of
 * kernel/keys/ offer each other. kernel/keys/keys.h is what the rest of
 * the kernel sees.
 *
 * A key has a serial number, a type, a description, a payload, an owner
 * and group, a permission mask (possessor, user, group, other) and an
 * expiry; it is alive, revoked, invalidated or negative (a failed
 * request_key, which answers its error until it expires). It lives while
 * something refers to it: a keyring's link, a process's keyring slot, a
 * lookup in progress. One mutex (keys_lock) guards every key, keyring and
 * quota: the calls copy from and to user memory outside it.
 */
#ifndef REWIND_KEYS_KEY_H
#define REWIND_KEYS_KEY_H

#include "kernel/lib/list.h"
#include "kernel/lib/types.h"
#include "locking/mutex.h"
#include "mm/uaccess.h"
#include "uapi/keyctl.h"

#define KEY_MAX_DESC_SIZE    4096 /* description bytes, NUL included */
#define KEY_TYPE_NAME_SIZE   32	  /* a type's name, NUL included */
#define KEYRING_MAX_DEPTH    6	  /* keyrings within keyrings a search follows */
#define KEY_NEGATIVE_TIMEOUT 60	  /* seconds a failed request_key is remembered */
#define KEY_PERM_ALL_CLASSES (KEY_POS_ALL | KEY_USR_ALL | KEY_GRP_ALL | KEY_OTH_ALL)

/* What an access needs: one bit of a class's byte. */
enum key_need {
	KEY_NEED_VIEW = 0x01,
	KEY_NEED_READ = 0x02,
	KEY_NEED_WRITE = 0x04,
	KEY_NEED_SEARCH = 0x08,
	KEY_NEED_LINK = 0x10,
	KEY_NEED_SETATTR = 0x20,
};

enum key_flag {
	KEY_FLAG_REVOKED = 1 << 0,
	KEY_FLAG_INVALIDATED = 1 << 1,
	KEY_FLAG_DEAD = 1 << 2,	    /* its last reference is gone */
	KEY_FLAG_IN_QUOTA = 1 << 3, /* charged to its owner's quota */
	KEY_FLAG_INSTANTIATED = 1 << 4,
	KEY_FLAG_NEGATIVE = 1 << 5,    /* instantiated with an error (reject_error) */
	KEY_FLAG_UID_KEYRING = 1 << 6, /* a user or user-session keyring */
	KEY_FLAG_RESTRICTED = 1 << 7,  /* KEYCTL_RESTRICT_KEYRING: no more links */
};

struct key;

/* What a key of this type holds and how it is made, changed, read and shown (Linux's key_type). */
struct key_type {
	const char *name;
	/*
	 * Checks the payload add_key or KEYCTL_UPDATE brings and makes it the
	 * key's (*payload, its quota bytes in *quotalen): 0 or -errno.
	 */
	int (*instantiate)(struct key *key, const void *data, size_t len);
	int (*update)(struct key *key, const void *data, size_t len); /* NULL: -EOPNOTSUPP */
	/* The payload as KEYCTL_READ gives it: its whole length, copying what fits buflen. */
	long (*read)(const struct key *key, char *buf, size_t buflen); /* NULL: -EOPNOTSUPP */
	int (*vet_description)(const char *desc);		       /* NULL: any */
	void (*destroy)(struct key *key);			       /* frees the payload */
	void (*revoke)(struct key *key);			       /* NULL: the payload stays */
};

/* One user's keys and quota (Linux's key_user, /proc/key-users), and its keyrings. */
struct key_user {
	u32 uid;
	int usage;   /* keys owned, plus the user's own keyrings' hold */
	int nkeys;   /* keys owned */
	int nikeys;  /* of them instantiated */
	int qnkeys;  /* keys charged to the quota */
	u32 qnbytes; /* bytes charged: descriptions and payloads */
	/*
	 * "_uid.N" and "_uid_ses.N", made on first use; not referenced from
	 * here: they live while a thread's session slot or a keyring holds
	 * them (the user session keyring links the user keyring).
	 */
	struct key *uid_keyring, *session_keyring;
	struct key *persistent_keyring; /* "_persistent.N" (KEYCTL_GET_PERSISTENT), the same way */
	struct list_head link;
};

struct key {
	s32 serial;
	int usage;
	const struct key_type *type;
	char *description;
	u32 uid, gid, perm;
	struct key_user *user; /* whose quota it is charged to */
	s64 expiry;	       /* real-time seconds; 0: never */
	unsigned flags;	       /* enum key_flag */
	int reject_error;      /* negative keys: -errno a search reports */
	u32 quotalen;	       /* bytes charged for description and payload */
	void *payload;
	struct list_head link; /* every key, in serial order */
};

/* A keyring's payload: the keys it links, at most one per type and description. */
struct keyring_links {
	int count, capacity;
	struct key **keys;
};

/* Whether a new key counts against its owner's quota (Linux's KEY_ALLOC_*). */
enum key_quota {
	KEY_QUOTA_NONE,	   /* the kernel's own keys */
	KEY_QUOTA_CHARGE,  /* -EDQUOT past the quota */
	KEY_QUOTA_OVERRUN, /* counted, but made even past the quota: a process's own keyrings */
};

extern struct mutex keys_lock;
extern const struct key_type key_type_keyring, key_type_user, key_type_logon;
extern unsigned long key_quota_maxkeys, key_quota_maxbytes;
extern unsigned long key_quota_root_maxkeys, key_quota_root_maxbytes;
extern unsigned long key_gc_delay;
extern struct list_head key_list, key_user_list;

/* An id as the calls show it: no id (-1, the user keyrings' group) is the overflow id, as Linux's from_kgid_munged. */
static inline int
key_shown_id(u32 id)
{
	return id == (u32)-1 ? 65534 : (int)id;
}

/* key.c: keys and quotas (keys_lock held throughout). */
const struct key_type *key_type_find(const char *name);
/* A new, uninstantiated key charged to uid: the key, or NULL with *err. */
struct key *key_alloc(const struct key_type *type, const char *desc, u32 uid, u32 gid, u32 perm,
		      enum key_quota quota, int *err);
/* Payload bytes changed to len: -EDQUOT past the owner's quota. */
int key_payload_reserve(struct key *key, size_t len);
/* Gives key its payload through its type: 0 or -errno. */
int key_instantiate(struct key *key, const void *data, size_t len);
/* Makes key negative: searches answer error (-ENOKEY) until it expires. */
void key_negate(struct key *key, int error);
struct key *key_get(struct key *key);
void key_put(struct key *key);
struct key *key_find_serial(s32 serial);
s64 key_now(void);
bool key_is_positive(const struct key *key);
/* 0, -EKEYREVOKED (revoked, invalidated) or -EKEYEXPIRED. */
int key_validate(const struct key *key);
/* 0 or -EACCES: may the caller do need to key, possessing it or not. */
int key_permission(const struct key *key, bool possessed, unsigned need);
void key_revoke(struct key *key);
void key_invalidate(struct key *key);
struct key_user *key_user_get(u32 uid);
void key_user_put(struct key_user *user);
/* Moves key's charge to uid: -EDQUOT, -ENOMEM. */
int key_change_owner(struct key *key, u32 uid);

/* keyring.c: keyrings as containers. */
struct key *keyring_alloc(const char *desc, u32 uid, u32 gid, u32 perm, enum key_quota quota,
			  int *err);
/* Links key into keyring, replacing a key of the same type and description. */
int keyring_link(struct key *keyring, struct key *key);
int keyring_unlink(struct key *keyring, struct key *key);
int keyring_clear(struct key *keyring);
/* The key of type and description in keyring, nested keyrings included; its ERR code. */
struct key_search {
	const struct key_type *type;
	const char *description;
	const struct key *target; /* instead: is this very key reachable (possession) */
	bool check_state;	  /* revoked, expired and negative keys answer their error */
	bool skip_expired;	  /* request_key: an expired key is passed over silently */
	bool possessed;		  /* set by the search: reached through possessed keyrings */
	int error;		  /* the best error met: -EAGAIN when nothing came close */
};
struct key *keyring_search(struct key *keyring, bool possessed, struct key_search *ctx);
/* The keyring called name that the caller may search, for KEYCTL_JOIN_SESSION_KEYRING. */
struct key *keyring_find_by_name(const char *name);
/* Unlinks key from every keyring (an invalidated key). */
void keyring_unlink_everywhere(struct key *key);

/* add_request.c: the arguments keyctl shares with add_key and request_key. */
/* A type name (at most 31 bytes, not starting with '.'): 0, -EFAULT, -EINVAL or -EPERM. */
int key_type_name_from_user(char name[KEY_TYPE_NAME_SIZE], const char __user *u);
/* A string of at most max bytes with its NUL, kmalloc'd: NULL with -EFAULT, -EINVAL, -ENOMEM. */
char *key_string_from_user(const char __user *u, size_t max, int *err);
/* A payload of len bytes (NULL for none), kmalloc'd or vmalloc'd by size: NULL with *err. */
void *key_payload_from_user(const void __user *u, size_t len, int *err);
void key_payload_free(void *p, size_t len);

/* process_keyrings.c: the caller's keyrings and the ids that name keys. */
#define KEY_LOOKUP_CREATE   0x01 /* make the special keyring if absent */
#define KEY_LOOKUP_PARTIAL  0x02 /* an uninstantiated key will do */
#define KEY_LOOKUP_NO_CHECK 0x04 /* no state check (KEYCTL_READ's deferred check) */
struct key *lookup_user_key(s32 id, unsigned flags, unsigned need, bool *possessed, int *err);
/* Searches the caller's thread, process and session keyrings (ctx->error if nothing). */
struct key *search_process_keyrings(struct key_search *ctx);
/*
 * The caller's session keyring: with none, its user's session keyring
 * becomes its own (Linux's lookup_user_key does this the first time the
 * session keyring is named). The thread's reference is what keeps the
 * user keyrings alive: NULL with *err.
 */
struct key *current_session_keyring(int *err);
/* Whether the caller possesses key: reaches it through its own keyrings, searchable. */
bool key_possessed(const struct key *key);
int join_session_keyring(const char *name);
long keys_set_reqkey_keyring(int which);
/* KEYCTL_GET_PERSISTENT: uid's persistent keyring (uid -1: the caller's) linked into dest. */
long keys_get_persistent(u32 uid, s32 destid);
extern unsigned long persistent_keyring_expiry;
/* The keyring request_key links a new key into when none is named: the key or NULL with *err. */
struct key *reqkey_default_keyring(int *err);

#endif
