/*
 * keys.c - usertests: the key retention service (add_key, request_key,
 * keyctl; keyrings(7)): user keys made, read, updated, revoked and
 * invalidated; keyrings as containers searched through their nesting;
 * possession and the permission mask; the thread, process and session
 * keyrings across fork; request_key with no /sbin/request-key; the
 * quotas; /proc/keys and the errors Linux gives. Every test first joins
 * a session keyring of its own, so that none sees another's keys.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uapi/keyctl.h"

static long
add_key(const char *type, const char *desc, const void *payload, size_t len, int ring)
{
	return syscall(SYS_add_key, type, desc, payload, len, ring);
}

static long
request_key(const char *type, const char *desc, const char *callout, int ring)
{
	return syscall(SYS_request_key, type, desc, callout, ring);
}

static long
keyctl(int cmd, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
	return syscall(SYS_keyctl, cmd, a2, a3, a4, a5);
}

/* A session keyring of the test's own: its serial. */
static int
new_session(void)
{
	return (int)CHECK_OK(keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0));
}

static int
add_user_key(const char *desc, const char *payload, int ring)
{
	return (int)CHECK_OK(add_key("user", desc, payload, strlen(payload), ring));
}

/* The serials a keyring links, into ids (at most max): how many. */
static int
keyring_ids(int ring, int *ids, int max)
{
	long len = CHECK_OK(keyctl(KEYCTL_READ, ring, (unsigned long)ids, max * sizeof(int), 0));

	CHECK(len <= (long)(max * sizeof(int)));
	return (int)(len / sizeof(int));
}

TEST(keys_user_key_read_update_describe)
{
	char buf[64], want[128];

	new_session();
	int key = add_user_key("keys-test", "payload", KEY_SPEC_SESSION_KEYRING);
	CHECK_EQ(keyctl(KEYCTL_READ, key, (unsigned long)buf, sizeof(buf), 0), 7l);
	CHECK(memcmp(buf, "payload", 7) == 0);
	memset(buf, 'x', sizeof(buf));
	CHECK_EQ(keyctl(KEYCTL_READ, key, (unsigned long)buf, 3, 0),
		 7l); /* too small: length only */
	CHECK(all_bytes(buf, sizeof(buf), 'x'));
	CHECK_EQ(add_user_key("keys-test", "second", KEY_SPEC_SESSION_KEYRING), key); /* updated */
	CHECK_EQ(keyctl(KEYCTL_READ, key, (unsigned long)buf, sizeof(buf), 0), 6l);
	CHECK_OK(keyctl(KEYCTL_UPDATE, key, (unsigned long)"third!!", 7, 0));
	CHECK_EQ(keyctl(KEYCTL_READ, key, (unsigned long)buf, sizeof(buf), 0), 7l);
	CHECK(memcmp(buf, "third!!", 7) == 0);
	snprintf(want, sizeof(want), "user;%d;%d;3f010000;keys-test", (int)geteuid(),
		 (int)getegid());
	long len = CHECK_OK(keyctl(KEYCTL_DESCRIBE, key, (unsigned long)buf, sizeof(buf), 0));
	CHECK_EQ(len, (long)strlen(want) + 1);
	CHECK(strcmp(buf, want) == 0);
	CHECK_EQ(keyctl(KEYCTL_GET_SECURITY, key, (unsigned long)buf, sizeof(buf), 0) >= 1, 1);
}

TEST(keys_logon_key_is_unreadable)
{
	char buf[16];

	new_session();
	CHECK_ERR(EINVAL, add_key("logon", "nocolon", "x", 1, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(EINVAL, add_key("logon", ":name", "x", 1, KEY_SPEC_SESSION_KEYRING));
	int key =
		(int)CHECK_OK(add_key("logon", "svc:name", "secret", 6, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(EOPNOTSUPP, keyctl(KEYCTL_READ, key, (unsigned long)buf, sizeof(buf), 0));
}

TEST(keys_keyrings_nest_search_link_unlink)
{
	int ids[4];
	int session = new_session();
	int ring = (int)CHECK_OK(add_key("keyring", "inner", NULL, 0, KEY_SPEC_SESSION_KEYRING));
	int key = add_user_key("deep", "v", ring);

	CHECK_EQ(keyctl(KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, (unsigned long)"user",
			(unsigned long)"deep", 0),
		 (long)key);
	CHECK_EQ(request_key("user", "deep", NULL, 0), (long)key);
	CHECK_ERR(ENOKEY, request_key("user", "absent", NULL, 0));
	CHECK_ERR(EDEADLK, keyctl(KEYCTL_LINK, session, ring, 0, 0)); /* a cycle */
	CHECK_OK(keyctl(KEYCTL_LINK, key, KEY_SPEC_SESSION_KEYRING, 0, 0));
	CHECK_EQ(keyring_ids(KEY_SPEC_SESSION_KEYRING, ids, 4), 2);
	CHECK_OK(keyctl(KEYCTL_UNLINK, key, KEY_SPEC_SESSION_KEYRING, 0, 0));
	CHECK_ERR(ENOENT, keyctl(KEYCTL_UNLINK, key, KEY_SPEC_SESSION_KEYRING, 0, 0));
	CHECK_EQ(keyring_ids(KEY_SPEC_SESSION_KEYRING, ids, 4), 1);
	CHECK_EQ(ids[0], ring);
	CHECK_ERR(ENOTDIR, keyctl(KEYCTL_LINK, ring, key, 0, 0));
	/* a second keyring of the same description replaces the first's link */
	int ring2 = (int)CHECK_OK(add_key("keyring", "inner", NULL, 0, KEY_SPEC_SESSION_KEYRING));
	CHECK(ring2 != ring);
	CHECK_EQ(keyring_ids(KEY_SPEC_SESSION_KEYRING, ids, 4), 1);
	CHECK_EQ(ids[0], ring2);
	add_user_key("a", "1", ring2);
	CHECK_OK(keyctl(KEYCTL_CLEAR, ring2, 0, 0, 0));
	CHECK_EQ(keyring_ids(ring2, ids, 4), 0);
}

TEST(keys_revoke_and_timeout)
{
	char buf[8];

	new_session();
	int key = add_user_key("revoked", "v", KEY_SPEC_SESSION_KEYRING);
	CHECK_OK(keyctl(KEYCTL_REVOKE, key, 0, 0, 0));
	CHECK_ERR(EKEYREVOKED, keyctl(KEYCTL_READ, key, (unsigned long)buf, sizeof(buf), 0));
	CHECK_ERR(EKEYREVOKED, keyctl(KEYCTL_UPDATE, key, (unsigned long)"w", 1, 0));
	int ring = (int)CHECK_OK(add_key("keyring", "dest", NULL, 0, KEY_SPEC_SESSION_KEYRING));
	CHECK_OK(keyctl(KEYCTL_REVOKE, ring, 0, 0, 0));
	CHECK_ERR(EKEYREVOKED, request_key("keyring", "x", NULL, ring));
	/* a revoked key is not updated by add_key: a new key takes its place */
	int again = add_user_key("revoked", "v2", KEY_SPEC_SESSION_KEYRING);
	CHECK(again != key);
	CHECK_OK(keyctl(KEYCTL_SET_TIMEOUT, again, 1, 0, 0));
	sleep(2); /* past the timeout: the mechanism is the expiry, however late this wakes */
	CHECK_ERR(EKEYEXPIRED, keyctl(KEYCTL_READ, again, (unsigned long)buf, sizeof(buf), 0));
	CHECK_ERR(ENOKEY, request_key("user", "revoked", NULL, 0)); /* passed over */
	CHECK_ERR(EKEYEXPIRED, keyctl(KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING,
				      (unsigned long)"user", (unsigned long)"revoked", 0));
}

TEST(keys_invalidate_unlinks)
{
	int ids[2];
	char buf[8];

	new_session();
	int key = add_user_key("gone", "v", KEY_SPEC_SESSION_KEYRING);
	CHECK_OK(keyctl(KEYCTL_INVALIDATE, key, 0, 0, 0));
	long r = keyctl(KEYCTL_READ, key, (unsigned long)buf, sizeof(buf), 0);
	/* invalid (EKEYREVOKED), or unlinked: then not possessed (EACCES) or freed (ENOKEY) */
	CHECK(r == -1 && (errno == EKEYREVOKED || errno == EACCES || errno == ENOKEY));
	/* Linux's collector unlinks it a moment later; rewind at once */
	for (int i = 0; i < 100 && keyring_ids(KEY_SPEC_SESSION_KEYRING, ids, 2); i++)
		usleep(10000);
	CHECK_EQ(keyring_ids(KEY_SPEC_SESSION_KEYRING, ids, 2), 0);
}

/* A user's persistent keyring: the same one at each call, linked where asked; another user's is EPERM. */
static void
check_other_persistent(const char *unused)
{
	(void)unused;
	new_session();
	CHECK_ERR(EPERM, keyctl(KEYCTL_GET_PERSISTENT, 0, KEY_SPEC_SESSION_KEYRING, 0, 0));
}

TEST(keys_persistent_keyring)
{
	char buf[128], want[128];
	int ids[2];

	new_session();
	int ring = (int)CHECK_OK(
		keyctl(KEYCTL_GET_PERSISTENT, (unsigned long)-1, KEY_SPEC_SESSION_KEYRING, 0, 0));
	CHECK_EQ(keyctl(KEYCTL_GET_PERSISTENT, (unsigned long)-1, KEY_SPEC_SESSION_KEYRING, 0, 0),
		 (long)ring);
	CHECK_EQ(keyring_ids(KEY_SPEC_SESSION_KEYRING, ids, 2), 1);
	CHECK_EQ(ids[0], ring);
	snprintf(want, sizeof(want), "keyring;%d;65534;1f030000;_persistent.%d", (int)getuid(),
		 (int)getuid());
	CHECK_OK(keyctl(KEYCTL_DESCRIBE, ring, (unsigned long)buf, sizeof(buf), 0));
	CHECK(strcmp(buf, want) == 0);
	int key = add_user_key("a", "b", KEY_SPEC_SESSION_KEYRING);
	CHECK_ERR(ENOTDIR, keyctl(KEYCTL_GET_PERSISTENT, (unsigned long)-1, key, 0, 0));
	if (geteuid() == 0)
		as_nobody(check_other_persistent, NULL);
}

/* Reading a key whose user byte is empty: EACCES unless the caller possesses it. */
TEST(keys_possession_grants_possessor_bits)
{
	char buf[8];

	new_session();
	int key = add_user_key("mine", "v", KEY_SPEC_SESSION_KEYRING);
	CHECK_OK(keyctl(KEYCTL_SETPERM, key, KEY_POS_ALL, 0, 0));
	CHECK_EQ(keyctl(KEYCTL_READ, key, (unsigned long)buf, sizeof(buf), 0), 1l);
	CHECK_OK(keyctl(KEYCTL_LINK, key, KEY_SPEC_THREAD_KEYRING, 0, 0)); /* keeps it alive */
	CHECK_OK(keyctl(KEYCTL_UNLINK, key, KEY_SPEC_SESSION_KEYRING, 0, 0));
	new_session(); /* the thread keyring still holds it: possessed */
	CHECK_EQ(keyctl(KEYCTL_READ, key, (unsigned long)buf, sizeof(buf), 0), 1l);
	int ring = (int)CHECK_OK(keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 0, 0, 0));
	CHECK_OK(keyctl(KEYCTL_SETPERM, ring, KEY_POS_ALL & ~KEY_POS_SEARCH, 0, 0));
	/* not searchable: not possessed through it, and the user byte is empty */
	CHECK_ERR(EACCES, keyctl(KEYCTL_READ, key, (unsigned long)buf, sizeof(buf), 0));
	CHECK_ERR(EACCES, keyctl(KEYCTL_SETPERM, key, KEY_POS_ALL | KEY_USR_ALL, 0, 0));
	CHECK_ERR(EINVAL, keyctl(KEYCTL_SETPERM, ring, 0x40000000, 0, 0));
}

TEST(keys_fork_keeps_session_not_thread_or_process)
{
	new_session();
	int session =
		(int)CHECK_OK(keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0, 0, 0));
	CHECK_OK(keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 1, 0, 0));
	int process =
		(int)CHECK_OK(keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 1, 0, 0));
	pid_t pid = xfork();
	if (pid == 0) {
		CHECK_EQ(keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0, 0, 0),
			 (long)session);
		CHECK_ERR(ENOKEY, keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 0, 0, 0));
		CHECK_ERR(ENOKEY, keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 0, 0, 0));
		_exit(0);
	}
	expect_exited(wait_status(pid), 0, "the child's keyrings");
	CHECK_EQ(keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 0, 0, 0), (long)process);
	/* the request_key default: the old setting back, the thread keyring kept */
	int thread = (int)CHECK_OK(keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 0, 0, 0));
	CHECK_OK(keyctl(KEYCTL_SET_REQKEY_KEYRING, KEY_REQKEY_DEFL_THREAD_KEYRING, 0, 0, 0));
	CHECK_EQ(keyctl(KEYCTL_SET_REQKEY_KEYRING, KEY_REQKEY_DEFL_NO_CHANGE, 0, 0, 0),
		 (long)KEY_REQKEY_DEFL_THREAD_KEYRING);
	CHECK_EQ(keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 0, 0, 0), (long)thread);
	CHECK_ERR(EINVAL, keyctl(KEYCTL_SET_REQKEY_KEYRING, 99, 0, 0, 0));
}

/* What a second thread sees: the process keyring it shares, and a thread keyring of its own. */
static void *
thread_keyrings(void *unused)
{
	static long seen[2];

	(void)unused;
	seen[0] = keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 0, 0, 0);
	seen[1] = keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 0, 0, 0);
	return seen;
}

TEST(keys_threads_share_process_keyring)
{
	pthread_t thread;
	long *seen;

	new_session();
	int process =
		(int)CHECK_OK(keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 1, 0, 0));
	int mine = (int)CHECK_OK(keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 1, 0, 0));
	CHECK_EQ(pthread_create(&thread, NULL, thread_keyrings, NULL), 0);
	CHECK_EQ(pthread_join(thread, (void **)&seen), 0);
	CHECK_EQ(seen[0], (long)process);
	/* a new one, because its creator had one (Linux's copy_creds) */
	CHECK(seen[1] > 0 && seen[1] != mine);
}

/*
 * With no /sbin/request-key, request_key's callout makes a negative key
 * in the destination (ENOENT; ENOKEY where the program exists but does
 * not know the key), which later searches and reads answer with ENOKEY.
 */
TEST(keys_request_key_without_helper_is_negative)
{
	int ids[2];
	char buf[8];

	new_session();
	long r = request_key("user", "nobody-makes-this", "info", KEY_SPEC_SESSION_KEYRING);
	CHECK(r == -1 && (errno == ENOENT || errno == ENOKEY));
	CHECK_EQ(keyring_ids(KEY_SPEC_SESSION_KEYRING, ids, 2), 1);
	CHECK_ERR(ENOKEY, keyctl(KEYCTL_READ, ids[0], (unsigned long)buf, sizeof(buf), 0));
	CHECK_ERR(ENOKEY, request_key("user", "nobody-makes-this", "info", 0));
	/* a positive key of that description takes the negative one's place */
	int key = add_user_key("nobody-makes-this", "v", KEY_SPEC_SESSION_KEYRING);
	CHECK_EQ(request_key("user", "nobody-makes-this", NULL, 0), (long)key);
	CHECK_ERR(EPERM, request_key("keyring", "never", "info", KEY_SPEC_SESSION_KEYRING));
}

TEST(keys_bad_arguments)
{
	char big[40];

	new_session();
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (int i = 0; i < NBAD; i++) {
		const char *bad = (const char *)bad_addrs[i];
		CHECK_ERR(EFAULT, add_key(bad, "d", "p", 1, KEY_SPEC_SESSION_KEYRING));
		CHECK_ERR(EFAULT, add_key("user", bad, "p", 1, KEY_SPEC_SESSION_KEYRING));
		CHECK_ERR(EFAULT, add_key("user", "d", bad, 1, KEY_SPEC_SESSION_KEYRING));
		CHECK_ERR(EFAULT, request_key(bad, "d", NULL, 0));
		CHECK_ERR(EFAULT, request_key("user", bad, NULL, 0));
		CHECK_ERR(EFAULT, request_key("user", "d", bad, 0));
		CHECK_ERR(EFAULT, keyctl(KEYCTL_DESCRIBE, KEY_SPEC_SESSION_KEYRING,
					 (unsigned long)bad, 100, 0));
		CHECK_ERR(EFAULT, keyctl(KEYCTL_JOIN_SESSION_KEYRING, (unsigned long)bad, 0, 0, 0));
		CHECK_ERR(EFAULT, keyctl(KEYCTL_UPDATE, KEY_SPEC_SESSION_KEYRING,
					 (unsigned long)bad, 4, 0));
	}
	CHECK_ERR(EPERM, add_key(".user", "d", "p", 1, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(EPERM, add_key("keyring", ".dot", NULL, 0, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(EINVAL, add_key(big, "d", "p", 1, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(EINVAL, add_key("", "d", "p", 1, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(ENODEV, add_key("no-such-type", "d", "p", 1, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(EINVAL, add_key("keyring", "d", "p", 1, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(EINVAL, add_key("user", "d", NULL, 0, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(EINVAL, add_key("user", "d", big, 1 << 20, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(EINVAL, add_key("user", NULL, "p", 1, KEY_SPEC_SESSION_KEYRING));
	CHECK_ERR(EINVAL, add_key("user", "d", "p", 1, KEY_SPEC_GROUP_KEYRING));
	CHECK_ERR(ENOKEY, request_key("no-such-type", "d", NULL, 0));
	CHECK_ERR(EPERM, keyctl(KEYCTL_JOIN_SESSION_KEYRING, (unsigned long)".builtin", 0, 0, 0));
	CHECK_ERR(EOPNOTSUPP, keyctl(9999, 0, 0, 0, 0));
	CHECK_ERR(EINVAL, keyctl(KEYCTL_ASSUME_AUTHORITY, (unsigned long)-5, 0, 0, 0));
	CHECK_OK(keyctl(KEYCTL_ASSUME_AUTHORITY, 0, 0, 0, 0));
	CHECK_ERR(EPERM, keyctl(KEYCTL_INSTANTIATE, 12345, (unsigned long)"p", 1, 0));
	CHECK_ERR(EPERM, keyctl(KEYCTL_NEGATE, 12345, 10, 0, 0));
	/* a serial nobody holds: try down from the top until one answers ENOKEY */
	int serial = 0x7fffffff;
	while (keyctl(KEYCTL_DESCRIBE, serial, 0, 0, 0) != -1 || errno != ENOKEY)
		serial--;
	CHECK_ERR(ENOKEY, keyctl(KEYCTL_REVOKE, serial, 0, 0, 0));
	CHECK_ERR(ENOKEY, keyctl(KEYCTL_READ, serial, 0, 0, 0));
}

/* Nobody's byte quota (maxbytes): a payload past it is EDQUOT, and its description counts. */
static void
check_byte_quota(const char *unused)
{
	unsigned long maxbytes = read_number("/proc/sys/kernel/keys/maxbytes");
	size_t len = maxbytes < 32767 ? maxbytes : 32767;
	char *payload = calloc(1, len);

	(void)unused;
	if (maxbytes >= 32767)
		skip("maxbytes %lu holds the largest user key", maxbytes);
	CHECK(payload != NULL);
	new_session();
	CHECK_ERR(EDQUOT, add_key("user", "too-big", payload, len, KEY_SPEC_THREAD_KEYRING));
	CHECK_OK(add_key("user", "fits", payload, len / 2, KEY_SPEC_THREAD_KEYRING));
	free(payload);
}

TEST(keys_quota_bytes_as_nobody)
{
	if (geteuid() != 0)
		skip("needs root to become nobody");
	as_nobody(check_byte_quota, NULL);
}

/* /proc/keys shows a key the reader possesses, Linux's columns; /proc/key-users the owner. */
TEST(keys_proc_files)
{
	char line[256], want[64];
	bool found = false;

	new_session();
	int key = add_user_key("proc-key", "12345", KEY_SPEC_SESSION_KEYRING);
	FILE *f = fopen("/proc/keys", "r");
	CHECK(f != NULL);
	snprintf(want, sizeof(want), "%08x I--Q---", key);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, want, strlen(want)) == 0) {
			found = true;
			CHECK(strstr(line, " perm 3f010000 ") != NULL);
			CHECK(strstr(line, " user      proc-key: 5\n") != NULL);
		}
	fclose(f);
	CHECK(found);
	f = fopen("/proc/key-users", "r");
	CHECK(f != NULL);
	found = false;
	snprintf(want, sizeof(want), "%5u: ", (unsigned)geteuid());
	while (fgets(line, sizeof(line), f))
		found |= strncmp(line, want, strlen(want)) == 0;
	fclose(f);
	CHECK(found);
	CHECK(read_number("/proc/sys/kernel/keys/maxkeys") > 0);
}
