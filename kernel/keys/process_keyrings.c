/*
 * process_keyrings.c - the keyrings a thread has (Linux's
 * security/keys/process_keys.c): its thread keyring, its process's
 * keyring, its session keyring, and its user's user and user-session
 * keyrings; the special ids (KEY_SPEC_*) that name them; possession
 * (a key reached through them); and what fork, execve and exit do to
 * them.
 *
 * As Linux's credentials: a thread keyring is one thread's and is not
 * inherited; the process keyring is shared by the threads of a process
 * (CLONE_THREAD) and not by a child process; the session keyring is
 * inherited by every child and kept across execve, which drops the
 * other two. A thread with no session keyring that names one gets its
 * user's session keyring ("_uid_ses.N", which links "_uid.N"); the user
 * keyrings are made on first use and last as long as the kernel, as
 * Linux's user-namespace register keeps them.
 */
#include "kernel/keys/key.h"
#include "kernel/keys/keys.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/process/cred.h"
#include "uapi/errno.h"

/* One of a user's keyrings: the one that exists, else a new one called fmt; referenced. */
static struct key *
user_keyring(struct key **slot, const char *fmt, u32 uid, int *err)
{
	char name[32];

	if (*slot)
		return key_get(*slot);
	ksnprintf(name, sizeof(name), fmt, uid);
	struct key *keyring =
		keyring_alloc(name, uid, (u32)-1, (KEY_POS_ALL & ~KEY_POS_SETATTR) | KEY_USR_ALL,
			      KEY_QUOTA_OVERRUN, err);
	if (keyring) {
		keyring->flags |= KEY_FLAG_UID_KEYRING;
		*slot = keyring; /* the user's while it lives (key_destroy forgets it) */
	}
	return keyring;
}

/* The user and user-session keyrings of the caller's real uid, referenced (NULL: not wanted). */
static int
user_keyrings(struct key **uid_out, struct key **session_out)
{
	u32 uid = current_uids().real;
	struct key_user *user = key_user_get(uid);
	int err = -ENOMEM;

	if (!user)
		return err;
	struct key *uid_keyring = user_keyring(&user->uid_keyring, "_uid.%u", uid, &err);
	struct key *session =
		uid_keyring ? user_keyring(&user->session_keyring, "_uid_ses.%u", uid, &err) : NULL;
	if (session)
		err = keyring_link(session, uid_keyring); /* the same link again is no change */
	key_user_put(user);				  /* its keyrings, if made, hold it */
	if (err || !uid_out)
		key_put(uid_keyring);
	if (err || !session_out)
		key_put(session);
	if (err)
		return err;
	if (uid_out)
		*uid_out = uid_keyring;
	if (session_out)
		*session_out = session;
	return 0;
}

struct key *
current_session_keyring(int *err)
{
	struct task *t = current();

	*err = 0;
	if (!t->session_keyring)
		*err = user_keyrings(NULL, &t->session_keyring);
	return t->session_keyring;
}

/* A new private keyring for a thread's slot ("_tid", "_pid", "_ses"): 0 or -errno. */
static int
install_keyring(struct key **slot, const char *name, u32 perm)
{
	int err;
	struct key *keyring = keyring_alloc(name, current_fsuid(), current_fsgid(), perm,
					    KEY_QUOTA_OVERRUN, &err);

	if (!keyring)
		return err;
	key_put(*slot);
	*slot = keyring;
	return 0;
}

static int
install_thread_keyring(void)
{
	struct task *t = current();

	return t->thread_keyring
		       ? 0
		       : install_keyring(&t->thread_keyring, "_tid", KEY_POS_ALL | KEY_USR_VIEW);
}

static int
install_process_keyring(void)
{
	struct task *t = current();

	if (t->process_keyring)
		return 0;
	return install_keyring(&t->process_keyring, "_pid", KEY_POS_ALL | KEY_USR_VIEW);
}

/*
 * KEYCTL_JOIN_SESSION_KEYRING: name NULL, a new anonymous session
 * keyring; else the keyring called name that the caller may search, or
 * a new one of that name. The keyring's serial, or -errno.
 */
int
join_session_keyring(const char *name)
{
	struct task *t = current();
	struct key *keyring = name ? keyring_find_by_name(name) : NULL;
	int err;

	if (keyring) {
		key_get(keyring);
		key_put(t->session_keyring);
		t->session_keyring = keyring;
		return keyring->serial;
	}
	u32 perm = KEY_POS_ALL | KEY_USR_VIEW | KEY_USR_READ | (name ? KEY_USR_LINK : 0);
	keyring = keyring_alloc(name ? name : "_ses", current_fsuid(), current_fsgid(), perm,
				name ? KEY_QUOTA_CHARGE : KEY_QUOTA_OVERRUN, &err);
	if (!keyring)
		return err;
	key_put(t->session_keyring);
	t->session_keyring = keyring;
	return keyring->serial;
}

/* The keyring a special id names (KEY_SPEC_*), referenced, made if absent where Linux makes it. */
static struct key *
special_keyring(s32 id, unsigned flags, int *err)
{
	struct task *t = current();
	struct key *keyring = NULL;

	*err = 0;
	switch (id) {
	case KEY_SPEC_THREAD_KEYRING:
		if (!t->thread_keyring && !(flags & KEY_LOOKUP_CREATE))
			*err = -ENOKEY;
		else
			*err = install_thread_keyring();
		return *err ? NULL : key_get(t->thread_keyring);
	case KEY_SPEC_PROCESS_KEYRING:
		if (!t->process_keyring && !(flags & KEY_LOOKUP_CREATE))
			*err = -ENOKEY;
		else
			*err = install_process_keyring();
		return *err ? NULL : key_get(t->process_keyring);
	case KEY_SPEC_SESSION_KEYRING:
		if (!t->session_keyring && (flags & KEY_LOOKUP_CREATE)) {
			*err = join_session_keyring(NULL);
			if (*err < 0)
				return NULL;
		}
		return key_get(current_session_keyring(err));
	case KEY_SPEC_USER_KEYRING:
	case KEY_SPEC_USER_SESSION_KEYRING:
		if (!current_session_keyring(err)) /* which holds them */
			return NULL;
		*err = id == KEY_SPEC_USER_KEYRING ? user_keyrings(&keyring, NULL)
						   : user_keyrings(NULL, &keyring);
		return keyring;
	case KEY_SPEC_REQKEY_AUTH_KEY:
	case KEY_SPEC_REQUESTOR_KEYRING:
		*err = -ENOKEY; /* no request_key upcall is ever in progress */
		return NULL;
	default:
		*err = -EINVAL;
		return NULL;
	}
}

/* Linux's rule for combining the keyrings' answers: a miss (or a negative key) over other errors. */
static void
note_search_error(int err, int *miss, int *other)
{
	if (err == -EAGAIN || err == -ENOKEY)
		*miss = err;
	else
		*other = err;
}

struct key *
search_process_keyrings(struct key_search *ctx)
{
	struct task *t = current();
	int miss = 0, other = -EAGAIN, err;
	struct key *rings[3] = { t->thread_keyring, t->process_keyring,
				 current_session_keyring(&err) };

	for (int i = 0; i < 3; i++) {
		if (!rings[i])
			continue;
		ctx->error = -EAGAIN;
		struct key *key = keyring_search(rings[i], true, ctx);
		if (key)
			return key;
		note_search_error(ctx->error, &miss, &other);
	}
	ctx->error = miss ? miss : other;
	return NULL;
}

bool
key_possessed(const struct key *key)
{
	struct key_search ctx = { .target = key };

	return search_process_keyrings(&ctx) != NULL;
}

/* The state a lookup wants: a live, instantiated, positive key (need 0: any, checked later). */
static int
lookup_state(const struct key *key, unsigned flags, unsigned need)
{
	if (!need)
		return 0;
	if (flags & KEY_LOOKUP_PARTIAL)
		return key_validate(key);
	if (key->flags & KEY_FLAG_NEGATIVE)
		return key->reject_error;
	int err = key_validate(key);
	if (err)
		return err;
	return key->flags & KEY_FLAG_INSTANTIATED ? 0 : -EIO;
}

/*
 * The key an id names (a serial or a KEY_SPEC_*), referenced, with
 * whether the caller possesses it, if the caller has need on it (0:
 * the caller checks itself): NULL with -ENOKEY, -EACCES, -EKEYREVOKED ...
 */
struct key *
lookup_user_key(s32 id, unsigned flags, unsigned need, bool *possessed, int *err)
{
	struct key *key;

	if (id > 0) {
		key = key_get(key_find_serial(id));
		*err = -ENOKEY;
		if (!key)
			return NULL;
		*possessed = key_possessed(key);
	} else {
		key = special_keyring(id, flags, err);
		if (!key)
			return NULL;
		*possessed = true;
	}
	*err = lookup_state(key, flags, need);
	if (!*err && need)
		*err = key_permission(key, *possessed, need);
	if (*err)
		key_put(key);
	return *err ? NULL : key;
}

long
keys_set_reqkey_keyring(int which)
{
	struct task *t = current();
	int old = t->reqkey_default, err = 0;

	switch (which) {
	case KEY_REQKEY_DEFL_NO_CHANGE:
		return old;
	case KEY_REQKEY_DEFL_THREAD_KEYRING:
		err = install_thread_keyring();
		break;
	case KEY_REQKEY_DEFL_PROCESS_KEYRING:
		err = install_process_keyring();
		break;
	case KEY_REQKEY_DEFL_DEFAULT:
	case KEY_REQKEY_DEFL_SESSION_KEYRING:
	case KEY_REQKEY_DEFL_USER_KEYRING:
	case KEY_REQKEY_DEFL_USER_SESSION_KEYRING:
	case KEY_REQKEY_DEFL_REQUESTOR_KEYRING:
		break;
	default:
		return -EINVAL;
	}
	if (err)
		return err;
	t->reqkey_default = which;
	return old;
}

/*
 * The keyring request_key links a key it makes into when the caller
 * names none: the first that exists down the chain from the default the
 * caller set (thread, process, session, user session), which it must be
 * able to write (Linux's construct_get_dest_keyring).
 */
struct key *
reqkey_default_keyring(int *err)
{
	struct task *t = current();
	struct key *keyring = NULL;

	*err = 0;
	switch (t->reqkey_default) {
	case KEY_REQKEY_DEFL_DEFAULT:
	case KEY_REQKEY_DEFL_REQUESTOR_KEYRING:
	case KEY_REQKEY_DEFL_THREAD_KEYRING:
		if ((keyring = key_get(t->thread_keyring)))
			break;
		/* fall through */
	case KEY_REQKEY_DEFL_PROCESS_KEYRING:
		if ((keyring = key_get(t->process_keyring)))
			break;
		/* fall through */
	case KEY_REQKEY_DEFL_SESSION_KEYRING:
		if ((keyring = key_get(t->session_keyring)))
			break;
		/* fall through */
	case KEY_REQKEY_DEFL_USER_SESSION_KEYRING:
		*err = user_keyrings(NULL, &keyring);
		break;
	case KEY_REQKEY_DEFL_USER_KEYRING:
		*err = user_keyrings(&keyring, NULL);
		break;
	}
	if (!*err && (*err = key_permission(keyring, true, KEY_NEED_WRITE)))
		key_put(keyring);
	return *err ? NULL : keyring;
}

/*
 * A user's persistent keyring ("_persistent.N"), referenced: the one
 * that exists or a new one, outside the quota, its expiry pushed back to
 * persistent_keyring_expiry from now at each use, as Linux's.
 */
static struct key *
persistent_keyring(u32 uid, int *err)
{
	struct key_user *user = key_user_get(uid);

	*err = -ENOMEM;
	if (!user)
		return NULL;
	struct key *keyring = key_get(user->persistent_keyring);
	if (!keyring) {
		char name[32];
		ksnprintf(name, sizeof(name), "_persistent.%u", uid);
		keyring = keyring_alloc(name, uid, (u32)-1,
					(KEY_POS_ALL & ~KEY_POS_SETATTR) | KEY_USR_VIEW |
						KEY_USR_READ,
					KEY_QUOTA_NONE, err);
		user->persistent_keyring = keyring;
	}
	if (keyring)
		keyring->expiry = key_now() + (s64)persistent_keyring_expiry;
	key_user_put(user);
	return keyring;
}

long
keys_get_persistent(u32 uid, s32 destid)
{
	struct id_set uids = current_uids();
	bool possessed;
	int err;

	if (uid == (u32)-1)
		uid = uids.real;
	else if (uid != uids.real && uid != uids.effective && !capable(CAP_SETUID))
		return -EPERM; /* another user's cache is for the privileged */
	struct key *dest =
		lookup_user_key(destid, KEY_LOOKUP_CREATE, KEY_NEED_WRITE, &possessed, &err);
	if (!dest)
		return err;
	struct key *keyring =
		dest->type == &key_type_keyring ? persistent_keyring(uid, &err) : NULL;
	if (dest->type != &key_type_keyring)
		err = -ENOTDIR;
	if (keyring)
		err = keyring_link(dest, keyring);
	long ret = err ? err : keyring->serial;
	key_put(keyring);
	key_put(dest);
	return ret;
}

/* ---- fork, execve, exit ------------------------------------------------ */

void
keys_fork(struct task *child, struct task *parent, bool thread)
{
	int err;

	mutex_lock(&keys_lock);
	child->thread_keyring = NULL;
	if (thread &&
	    parent->thread_keyring) /* a thread of one that has a thread keyring gets its own */
		child->thread_keyring =
			keyring_alloc("_tid", current_fsuid(), current_fsgid(),
				      KEY_POS_ALL | KEY_USR_VIEW, KEY_QUOTA_OVERRUN, &err);
	child->process_keyring = thread ? key_get(parent->process_keyring) : NULL;
	child->session_keyring = key_get(parent->session_keyring);
	child->reqkey_default = parent->reqkey_default;
	mutex_unlock(&keys_lock);
}

void
keys_exec(struct task *t)
{
	mutex_lock(&keys_lock);
	key_put(t->thread_keyring);
	key_put(t->process_keyring);
	t->thread_keyring = t->process_keyring = NULL;
	mutex_unlock(&keys_lock);
}

void
keys_exit(struct task *t)
{
	mutex_lock(&keys_lock);
	key_put(t->thread_keyring);
	key_put(t->process_keyring);
	key_put(t->session_keyring);
	t->thread_keyring = t->process_keyring = t->session_keyring = NULL;
	mutex_unlock(&keys_lock);
}
