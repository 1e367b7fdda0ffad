/*
 * util.c - the part of System V IPC the three kinds share (Linux's
 * ipc/util.c): keys to ids, the permission check, the removal, the
 * common fields of the *ctl calls. See ipc/util.h.
 *
 * An id is a slot number with a sequence number above it: a slot freed
 * and given out again gets a new sequence number whenever it is not above
 * the slot given out last (Linux's rule), so an id that named a removed
 * object does not name its successor (EINVAL), until the sequence wraps.
 * New objects take the lowest free slot, as Linux's idr_alloc.
 */
#include "ipc/util.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "fs/vfs.h"
#include "mm/kmalloc.h"
#include "kernel/lib/string.h"
#include "uapi/errno.h"

/* The lowest free slot, growing the table when all are taken: -ENOSPC past the limits, -ENOMEM. */
static int
free_slot(struct ipc_ids *ids)
{
	for (int i = ids->free_hint; i < ids->nslots; i++)
		if (!ids->slots[i])
			return i;
	if (ids->nslots >= IPCMNI)
		return -ENOSPC;
	int n = ids->nslots ? ids->nslots * 2 : 16;
	struct ipc_object **slots = kzalloc(sizeof(*slots) * (size_t)n);
	if (!slots)
		return -ENOMEM;
	if (ids->nslots)
		memcpy(slots, ids->slots, sizeof(*slots) * (size_t)ids->nslots);
	kfree(ids->slots);
	ids->slots = slots;
	int first = ids->nslots;
	ids->nslots = n;
	return first;
}

static struct hlist_head *
key_bucket(struct ipc_ids *ids, int key)
{
	return &ids->keys[(unsigned)key % IPC_KEY_HASH];
}

/* Puts obj in the table with its owner and mode: its id, or -errno. */
static int
ipc_add(struct ipc_ids *ids, struct ipc_object *obj, int key, int flags)
{
	if ((unsigned long)ids->in_use >= ids->mni())
		return -ENOSPC;
	int idx = free_slot(ids);
	if (idx < 0)
		return idx;
	if (idx <= ids->last_idx && ++ids->seq > IPC_SEQ_MAX)
		ids->seq = 0;
	ids->last_idx = idx;
	struct id_set uids = current_uids(), gids = current_gids();
	obj->key = key;
	obj->uid = obj->cuid = uids.effective;
	obj->gid = obj->cgid = gids.effective;
	obj->mode = (u32)flags & 0777;
	obj->seq = ids->seq;
	obj->id = (ids->seq << IPCMNI_SHIFT) + idx;
	obj->users = 1;
	ids->slots[idx] = obj;
	ids->free_hint = idx + 1;
	if (key != IPC_PRIVATE)
		hlist_add_head(&obj->key_link, key_bucket(ids, key));
	ids->in_use++;
	ids->max_idx = MAX(ids->max_idx, idx);
	return obj->id;
}

static struct ipc_object *
find_key(struct ipc_ids *ids, int key)
{
	struct hlist_node *pos;

	hlist_for_each(pos, key_bucket(ids, key))
	{
		struct ipc_object *obj = container_of(pos, struct ipc_object, key_link);
		if (obj->key == key)
			return obj;
	}
	return NULL;
}

static long
create(struct ipc_ids *ids, int key, int flags, unsigned long arg)
{
	int err = 0;
	struct ipc_object *obj = ids->kind->create(ids, key, flags, arg, &err);

	if (!obj)
		return err;
	long id = ipc_add(ids, obj, key, flags);
	if (id < 0)
		ids->kind->free(obj);
	return id;
}

long
ipc_get(struct ipc_ids *ids, int key, int flags, unsigned long arg)
{
	long ret;

	mutex_lock(&ids->lock);
	struct ipc_object *obj = key == IPC_PRIVATE ? NULL : find_key(ids, key);
	if (!obj)
		ret = key == IPC_PRIVATE || (flags & IPC_CREAT) ? create(ids, key, flags, arg)
								: -ENOENT;
	else if ((flags & IPC_CREAT) && (flags & IPC_EXCL))
		ret = -EEXIST;
	else if (!ipc_may(obj, flags))
		ret = -EACCES;
	else if (ids->kind->fits && (ret = ids->kind->fits(obj, arg)))
		;
	else
		ret = obj->id;
	mutex_unlock(&ids->lock);
	return ret;
}

struct ipc_object *
ipc_find_slot(struct ipc_ids *ids, int idx)
{
	idx &= IPCMNI - 1; /* an id names its slot too, as Linux's ipcid_to_idx reads it */
	return idx <= ids->max_idx ? ids->slots[idx] : NULL;
}

struct ipc_object *
ipc_find(struct ipc_ids *ids, int id)
{
	struct ipc_object *obj = id < 0 ? NULL : ipc_find_slot(ids, id);

	return obj && obj->id == id ? obj : NULL;
}

struct ipc_object *
ipc_find_stat(struct ipc_ids *ids, int id, bool by_slot, bool any, long *err)
{
	struct ipc_object *obj = by_slot ? ipc_find_slot(ids, id) : ipc_find(ids, id);

	*err = !obj ? -EINVAL : !any && !ipc_may(obj, 0444) ? -EACCES : 0;
	return *err ? NULL : obj;
}

bool
ipc_may(const struct ipc_object *obj, int flag)
{
	u32 euid = current_uids().effective;
	int want = (flag >> 6) | (flag >> 3) | flag;
	u32 granted = obj->mode;

	if (euid == obj->cuid || euid == obj->uid)
		granted >>= 6;
	else if (in_group_p(obj->cgid) || in_group_p(obj->gid))
		granted >>= 3;
	return !(want & ~granted & 07) || capable(CAP_IPC_OWNER);
}

bool
ipc_may_control(const struct ipc_object *obj)
{
	u32 euid = current_uids().effective;

	return euid == obj->cuid || euid == obj->uid || capable(CAP_SYS_ADMIN);
}

static void
recompute_max(struct ipc_ids *ids)
{
	while (ids->max_idx >= 0 && !ids->slots[ids->max_idx])
		ids->max_idx--;
}

void
ipc_remove(struct ipc_ids *ids, struct ipc_object *obj)
{
	int idx = obj->id & (IPCMNI - 1);

	ipc_make_private(obj);
	ids->slots[idx] = NULL;
	ids->free_hint = MIN(ids->free_hint, idx);
	ids->in_use--;
	recompute_max(ids);
	if (!ids->in_use) { /* no table kept when there is nothing in it */
		kfree(ids->slots);
		ids->slots = NULL;
		ids->nslots = 0;
		ids->free_hint = 0;
	}
	obj->removed = true;
	ipc_drop(ids, obj);
}

void
ipc_make_private(struct ipc_object *obj)
{
	if (obj->key != IPC_PRIVATE)
		hlist_del(&obj->key_link);
	obj->key = IPC_PRIVATE;
}

void
ipc_hold(struct ipc_object *obj)
{
	obj->users++;
}

void
ipc_drop(struct ipc_ids *ids, struct ipc_object *obj)
{
	if (--obj->users == 0)
		ids->kind->free(obj);
}

int
ipc_max_idx(const struct ipc_ids *ids)
{
	return MAX(ids->max_idx, 0);
}

void
ipc_fill_perm(const struct ipc_object *obj, struct kernel_ipc64_perm *out)
{
	memset(out, 0, sizeof(*out));
	out->key = obj->key;
	out->uid = obj->uid;
	out->gid = obj->gid;
	out->cuid = obj->cuid;
	out->cgid = obj->cgid;
	out->mode = obj->mode;
	out->seq = obj->seq;
}

void
ipc_set_perm(struct ipc_object *obj, const struct kernel_ipc64_perm *in)
{
	obj->uid = in->uid;
	obj->gid = in->gid;
	obj->mode = (obj->mode & ~0777u) | (in->mode & 0777);
}

long
ipc_now(void)
{
	return (long)fs_now().sec;
}

int
ipc_pid(void)
{
	return current()->tgid;
}

void
ipc_for_each(struct ipc_ids *ids, void (*fn)(struct ipc_object *obj, void *arg), void *arg)
{
	mutex_lock(&ids->lock);
	for (int i = 0; i <= ids->max_idx; i++)
		if (ids->slots[i])
			fn(ids->slots[i], arg);
	mutex_unlock(&ids->lock);
}
