/*
 * namei.h - the path walk's interface (fs/namei.c): the parent and last
 * component of a path, what one walk carries (links followed, openat2's
 * resolve flags), and the lookups by path. Included by fs/vfs.h, after the
 * dentry and inode it speaks of.
 */
#ifndef REWIND_FS_NAMEI_H
#define REWIND_FS_NAMEI_H

#include "kernel/lib/types.h"

struct dentry;
struct inode;
struct super_block;

enum last_type { LAST_NORM, LAST_DOT, LAST_DOTDOT, LAST_ROOT };

/* The directory a path's last component is in, and that component. */
struct nameparent {
	struct dentry *dir; /* referenced */
	const char *last;   /* points into the path; not NUL-terminated */
	size_t len;
	enum last_type type;
	bool trailing_slash; /* "name/": must be a directory */
};

/* How many symbolic links one walk may follow before it fails with ELOOP (Linux's). */
#define MAXSYMLINKS 40

/* What one walk has followed so far, and what openat2's resolve flags allow it. */
struct walk {
	int links;		/* in all */
	int nested;		/* links being followed inside a link's target */
	unsigned resolve;	/* RESOLVE_* (uapi/openat2.h), 0 for every other call */
	struct dentry *root;	/* a scoped walk's start, referenced: walk_done drops it */
	struct super_block *sb; /* the file system RESOLVE_NO_XDEV keeps to */
};

/* Drops what a walk holds once it is over (a scoped walk's start). */
void walk_done(struct walk *w);
/* path_parent and path_lookup_at for a walk set up by the caller (its resolve flags). */
int path_parent_walk(int dirfd, const char *path, struct nameparent *np, struct walk *w);
int path_lookup_walk(int dirfd, const char *path, bool follow, struct walk *w, struct dentry **out);

/* Resolves path from dirfd (or AT_FDCWD), following a last symbolic link: a referenced dentry. */
int path_lookup(int dirfd, const char *path, struct dentry **out);
/* The same, following a last symbolic link only if follow (intermediate ones always). */
int path_lookup_at(int dirfd, const char *path, bool follow, struct dentry **out);
/*
 * Walks a link's target text as the walk would have (from dir, or from the
 * root if absolute) up to its last component, for O_CREAT through a link:
 * w counts links followed so far. 0 and np->dir referenced, or -errno.
 */
int path_parent_of_link(struct dentry *dir, const char *target, struct walk *w,
			struct nameparent *np);
/* Follows the symbolic link dentry link found in dir: the dentry it leads to, referenced. */
int follow_link(struct dentry *dir, struct dentry *link, struct walk *w, struct dentry **out);
/* Resolves all but the last component: 0 and np->dir referenced, or -errno. */
int path_parent(int dirfd, const char *path, struct nameparent *np);
/* Looks name up in dir (its inode->lock held): a referenced dentry, or -ENOENT ... */
int lookup_child(struct dentry *dir, const char *name, size_t len, struct dentry **out);
/*
 * The inode path names, referenced: with AT_EMPTY_PATH in at_flags and an
 * empty path, dirfd's own (any open file, or the cwd for AT_FDCWD).
 */
int lookup_inode_at(int dirfd, const char *path, int at_flags, struct inode **out);
/*
 * The dentry path names (a last symbolic link followed if follow): with
 * AT_EMPTY_PATH and an empty path, dirfd's own (-ENOENT for a pipe).
 */
int lookup_dentry_at(int dirfd, const char *path, int at_flags, bool follow, struct dentry **out);
/* The same for a path in user memory (getname first). */
int lookup_user_inode_at(int dirfd, const char __user *upath, int at_flags, struct inode **out);
/* Copies a path from user memory into a new PATH_MAX buffer: 0 or -errno. */
int getname(const char __user *upath, char **out);
void putname(char *name);

#endif
