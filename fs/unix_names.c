/*
 * unix_names.c - the names AF_UNIX sockets bind to, as Linux's: a path in
 * the file system, where bind makes a socket inode (EADDRINUSE if the name
 * exists) and connect needs write permission on it; or an abstract name,
 * whose sun_path starts with a NUL byte and which lives only while its
 * socket does, one table for both. An empty address (just the family)
 * binds an abstract name of five hex digits (autobind).
 *
 * A file-system name finds its socket through the inode, which the bound
 * socket holds: unlinking the name leaves the socket bound, unreachable.
 */
#include "fs/unix.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "mm/kmalloc.h"

static struct list_head bound = LIST_HEAD_INIT(bound); /* of unix_sock, under unix_lock */

#define SUN_PATH_OFFSET 2 /* offsetof(struct kernel_sockaddr_un, sun_path) */

static bool
is_abstract(const struct unix_address *a)
{
	return a->len > SUN_PATH_OFFSET && a->sun.sun_path[0] == '\0';
}

int
unix_address_get(const void __user *uaddr, int len, struct unix_address *a)
{
	if (len < SUN_PATH_OFFSET || len > (int)sizeof(a->sun))
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	if (copy_from_user(&a->sun, uaddr, (size_t)len))
		return -EFAULT;
	a->len = (u32)len;
	return 0;
}

int
unix_address_put(const struct unix_address *a, void __user *uaddr, int __user *ulen)
{
	struct unix_address unnamed = { .len = SUN_PATH_OFFSET, .sun.sun_family = AF_UNIX };
	int len;

	if (!a)
		a = &unnamed;
	if (copy_from_user(&len, ulen, sizeof(len)))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	u32 n = MIN((u32)len, a->len);
	if ((n && copy_to_user(uaddr, &a->sun, n)) || copy_to_user(ulen, &a->len, sizeof(int)))
		return -EFAULT; /* no name to give: the buffer is not touched, as Linux's */
	return 0;
}

/* A file-system name's path, NUL-terminated (sun_path may fill all 108 bytes). */
static void
path_of(const struct unix_address *a, char path[UNIX_PATH_MAX + 1])
{
	size_t n = a->len - SUN_PATH_OFFSET;

	memcpy(path, a->sun.sun_path, n);
	path[n] = '\0';
}

/* The bound socket with abstract name a and type, or NULL: unix_lock held. */
static struct unix_sock *
find_abstract(const struct unix_address *a, int type)
{
	struct list_head *e;

	list_for_each(e, &bound) {
		struct unix_sock *u = list_entry(e, struct unix_sock, bound_link);
		if (!u->node && u->type == type && u->addr->len == a->len &&
		    memcmp(&u->addr->sun, &a->sun, a->len) == 0)
			return u;
	}
	return NULL;
}

static struct unix_sock *
find_node(const struct inode *node)
{
	struct list_head *e;

	list_for_each(e, &bound) {
		struct unix_sock *u = list_entry(e, struct unix_sock, bound_link);
		if (u->node == node)
			return u;
	}
	return NULL;
}

/* Gives u the name a (a copy) and node: unix_lock held. */
static int
set_name(struct unix_sock *u, const struct unix_address *a, struct inode *node)
{
	u->addr = kmalloc(sizeof(*u->addr));
	if (!u->addr)
		return -ENOMEM;
	*u->addr = *a;
	u->node = node;
	list_add_tail(&u->bound_link, &bound);
	return 0;
}

int
unix_autobind(struct unix_sock *u)
{
	static u32 next_name;
	struct unix_address a = { .len = SUN_PATH_OFFSET + 6, .sun.sun_family = AF_UNIX };

	if (u->addr)
		return 0;
	for (u32 tries = 0; tries <= 0xfffff; tries++) {
		char name[8];
		ksnprintf(name, sizeof(name), "%05x", next_name++ & 0xfffff);
		memcpy(a.sun.sun_path + 1, name, 5);
		if (!find_abstract(&a, u->type))
			return set_name(u, &a, NULL);
	}
	return -ENOSPC;
}

/* Makes the socket inode for path: referenced in *out, or -EADDRINUSE if the name is taken. */
static int
make_node(const char *path, struct inode **out)
{
	struct nameparent np;
	int err = path_parent(AT_FDCWD, path, &np);

	if (err)
		return err;
	struct dentry *d;
	if (np.type != LAST_NORM)
		err = -EEXIST;
	else if (np.trailing_slash)
		err = -ENOENT;
	else
		err = vfs_create(np.dir, np.last, np.len, S_IFSOCK | (0777 & ~current_umask()),
				 true, &d, NULL);
	dput(np.dir);
	if (err)
		return err == -EEXIST ? -EADDRINUSE : err;
	*out = inode_get(d->inode);
	dput(d);
	return 0;
}

/* Bound sockets have sun_path NUL-terminated: getsockname's length counts the NUL, as Linux's. */
static void
trim_path(struct unix_address *a, const char *path)
{
	size_t n = strlen(path);

	memset(a->sun.sun_path, 0, sizeof(a->sun.sun_path));
	memcpy(a->sun.sun_path, path, n);
	a->len = (u32)(SUN_PATH_OFFSET + MIN(n + 1, sizeof(a->sun.sun_path)));
}

int
unix_bind(struct unix_sock *u, const struct unix_address *a)
{
	if (a->sun.sun_family != AF_UNIX)
		return -EINVAL;
	if (a->len == SUN_PATH_OFFSET) {
		mutex_lock(&unix_lock);
		int err = u->addr ? -EINVAL : unix_autobind(u);
		mutex_unlock(&unix_lock);
		return err;
	}
	if (is_abstract(a)) {
		mutex_lock(&unix_lock);
		int err = u->addr ? -EINVAL : find_abstract(a, u->type) ? -EADDRINUSE : 0;
		if (!err)
			err = set_name(u, a, NULL);
		mutex_unlock(&unix_lock);
		return err;
	}
	char path[UNIX_PATH_MAX + 1];
	struct unix_address named = *a;
	struct inode *node;
	path_of(a, path);
	trim_path(&named, path);
	if (READ_ONCE(u->addr))
		return -EINVAL; /* before the name is made, as Linux's unix_bind_bsd */
	int err = make_node(path, &node);
	if (err)
		return err;
	mutex_lock(&unix_lock);
	err = u->addr ? -EINVAL : set_name(u, &named, node);
	mutex_unlock(&unix_lock);
	if (err)
		inode_put(
			node); /* another thread bound it meanwhile: the name stays, as in Linux */
	return err;
}

/* The socket bound at a's path: the walk's errors, then EACCES, ECONNREFUSED. */
static int
find_by_path(const struct unix_address *a, struct unix_sock **out)
{
	char path[UNIX_PATH_MAX + 1];
	struct dentry *d;

	path_of(a, path);
	int err = path_lookup(AT_FDCWD, path, &d);
	if (err)
		return err;
	struct inode *inode = d->inode;
	if (!S_ISSOCK(inode->mode))
		err = -ECONNREFUSED;
	else
		err = inode_permission(inode, MAY_WRITE);
	if (!err) {
		mutex_lock(&unix_lock);
		*out = find_node(inode);
		if (*out)
			unix_sock_get(*out);
		mutex_unlock(&unix_lock);
		err = *out ? 0 : -ECONNREFUSED;
	}
	dput(d);
	return err;
}

int
unix_find(const struct unix_address *a, int type, struct unix_sock **out)
{
	if (a->sun.sun_family != AF_UNIX || a->len <= SUN_PATH_OFFSET)
		return -EINVAL;
	if (!is_abstract(a)) {
		int err = find_by_path(a, out);
		if (!err && (*out)->type != type) {
			mutex_lock(&unix_lock);
			unix_sock_put(*out);
			mutex_unlock(&unix_lock);
			err = -EPROTOTYPE;
		}
		return err;
	}
	mutex_lock(&unix_lock);
	*out = find_abstract(a, type);
	if (*out)
		unix_sock_get(*out);
	mutex_unlock(&unix_lock);
	return *out ? 0 : -ECONNREFUSED;
}

void
unix_unbind(struct unix_sock *u, struct inode **node)
{
	if (!u->addr || list_empty(&u->bound_link))
		return;
	list_del(&u->bound_link);
	*node = u->node;
	u->node = NULL;
}
