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

/* The user keyrings of the caller's real uid, made on first use: 0 or -errno. */
static int
user_keyrings(struct key **uid_keyring, struct key **session_keyring)
{
	u32 uid = current_uids().real;
	struct key_user *user = key_user_get(uid);
	char name[32];
	int err = 0;

	if (!user)
		return -ENOMEM;
	if (!user->uid_keyring) {
		ksnprintf(name, sizeof(name), "_uid.%u", uid);
		user->uid_keyring = keyring_alloc(name, uid, (u32)-1, KEY_POS_ALL | KEY_USR_ALL,
						  KEY_QUOTA_OVERRUN, &err);
		if (user->uid_keyring)
			user->uid_keyring->flags |= KEY_FLAG_UID_KEYRING;
	}
	if (user->uid_keyring && !user->session_keyring) {
		ksnprintf(name, sizeof(name), "_uid_ses.%u", uid);
		user->session_keyring = keyring_alloc(name, uid, (u32)-1, KEY_POS_ALL | KEY_USR_ALL,
						      KEY_QUOTA_OVERRUN, &err);
		if (user->session_keyring) {
			user->session_keyring->flags |= KEY_FLAG_UID_KEYRING;
			err = keyring_link(user->session_keyring, user->uid_keyring);
		}
	}
	if (uid_keyring)
		*uid_keyring = user->uid_keyring;
	if (session_keyring)
		*session_keyring = user->session_keyring;
	if (!user->session_keyring && !err)
		err = -ENOMEM;
	key_user_put(user); /* its keyrings, if made, hold it */
	return err;
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

/* The caller's session keyring, its user's session keyring if it has none: 0 or -errno. */
static int
session_keyring(struct key **out)
{
	struct task *t = current();

	if (t->session_keyring) {
		*out = t->session_keyring;
		return 0;
	}
	return user_keyrings(NULL, out);
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

/* The keyring a special id names (KEY_SPEC_*), made if absent where Linux makes it. */
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
		return *err ? NULL : t->thread_keyring;
	case KEY_SPEC_PROCESS_KEYRING:
		if (!t->process_keyring && !(flags & KEY_LOOKUP_CREATE))
			*err = -ENOKEY;
		else
			*err = install_process_keyring();
		return *err ? NULL : t->process_keyring;
	case KEY_SPEC_SESSION_KEYRING:
		if (!t->session_keyring) {
			if (flags & KEY_LOOKUP_CREATE)
				*err = join_session_keyring(NULL);
			else if ((*err = user_keyrings(NULL, &keyring)) == 0)
				t->session_keyring = key_get(keyring);
			if (*err < 0)
				return NULL;
			*err = 0;
		}
		return t->session_keyring;
	case KEY_SPEC_USER_KEYRING:
		*err = user_keyrings(&keyring, NULL);
		return *err ? NULL : keyring;
	case KEY_SPEC_USER_SESSION_KEYRING:
		*err = user_keyrings(NULL, &keyring);
		return *err ? NULL : keyring;
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
	struct key *session = NULL;
	struct key *rings[3] = { t->thread_keyring, t->process_keyring, NULL };
	int miss = 0, other = -EAGAIN;

	if (session_keyring(&session) == 0)
		rings[2] = session;
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
		key = key_find_serial(id);
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
	return *err ? NULL : key_get(key);
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
		if ((keyring = t->thread_keyring))
			break;
		/* fall through */
	case KEY_REQKEY_DEFL_PROCESS_KEYRING:
		if ((keyring = t->process_keyring))
			break;
		/* fall through */
	case KEY_REQKEY_DEFL_SESSION_KEYRING:
		if ((keyring = t->session_keyring))
			break;
		/* fall through */
	case KEY_REQKEY_DEFL_USER_SESSION_KEYRING:
		*err = user_keyrings(NULL, &keyring);
		break;
	case KEY_REQKEY_DEFL_USER_KEYRING:
		*err = user_keyrings(&keyring, NULL);
		break;
	}
	if (!*err)
		*err = key_permission(keyring, true, KEY_NEED_WRITE);
	return *err ? NULL : key_get(keyring);
}

/* ---- fork, execve, exit ------------------------------------------------ */

void
keys_fork(struct task *child, struct task *parent, bool thread)
{
	mutex_lock(&keys_lock);
	child->thread_keyring = NULL;
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
