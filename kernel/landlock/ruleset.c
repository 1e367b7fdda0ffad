/*
 * ruleset.c - Landlock's rulesets and domains, and the three calls that
 * make them (Linux 6.1's security/landlock/syscalls.c, ABI version 2).
 *
 * landlock_create_ruleset makes a ruleset, an fd on an anonymous inode
 * that names the file-system rights it handles; landlock_add_rule adds
 * rules to it, each the rights allowed on a file or beneath a directory
 * named by an fd (O_PATH will do); landlock_restrict_self freezes a copy
 * of it as a new layer on top of the caller's domain, which only narrows
 * from then on (check.c asks every layer). A rule belongs to the inode,
 * as Linux's landlock_object does, so every name of the directory
 * leads to it; the rule holds a reference on the inode.
 *
 * Linux keeps the domain in each thread's credentials; rewind keeps it
 * with the rest of the credentials on the process's leader (cred.h), so
 * restrict_self narrows the whole process at once.
 */
#include "fs/fs.h"
#include "fs/vfs.h"
#include "kernel/landlock/landlock.h"
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"

/* What an fd from landlock_create_ruleset holds: rules still being added. */
struct landlock_ruleset {
	struct mutex lock; /* guards the rules */
	u16 handled;
	int nrules, capacity;
	struct landlock_rule *rules;
};

u16
landlock_rule_access(const struct landlock_rule *rules, int nrules, const struct inode *inode)
{
	for (int i = 0; i < nrules; i++)
		if (rules[i].inode == inode)
			return rules[i].access;
	return 0;
}

static void
rules_put(struct landlock_rule *rules, int nrules)
{
	for (int i = 0; i < nrules; i++)
		inode_put(rules[i].inode);
}

struct landlock_domain *
landlock_domain_get(struct landlock_domain *dom)
{
	if (dom)
		__atomic_add_fetch(&dom->refs, 1, __ATOMIC_RELAXED);
	return dom;
}

void
landlock_domain_put(struct landlock_domain *dom)
{
	while (dom && __atomic_sub_fetch(&dom->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		struct landlock_domain *parent = dom->parent;
		rules_put(dom->rules, dom->nrules);
		kfree(dom);
		dom = parent;
	}
}

struct landlock_domain *
landlock_current_domain(void)
{
	struct task *leader = current()->group_leader;

	if (!leader || !READ_ONCE(leader->landlock))
		return NULL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct landlock_domain *dom = landlock_domain_get(leader->landlock);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return dom;
}

static void
ruleset_release(struct file *f)
{
	struct landlock_ruleset *rs = f->private;

	rules_put(rs->rules, rs->nrules);
	kfree(rs->rules);
	kfree(rs);
}

static const struct file_operations ruleset_fops = {
	.release = ruleset_release,
	.name = "[landlock-ruleset]",
};

/* Linux's copy_min_struct_from_user: attr must hold at least handled_access_fs. */
static int
copy_ruleset_attr(struct landlock_ruleset_attr *a, const void __user *uattr, size_t size)
{
	if (!uattr)
		return -EFAULT;
	if (size < sizeof(*a))
		return -EINVAL;
	if (size > PAGE_SIZE)
		return -E2BIG;
	return copy_struct_from_user(a, sizeof(*a), uattr, size);
}

SYSCALL3(landlock_create_ruleset, const struct landlock_ruleset_attr __user *, attr, size_t, size,
	 u32, flags)
{
	struct landlock_ruleset_attr a;

	if (flags) {
		if (flags == LANDLOCK_CREATE_RULESET_VERSION && !attr && !size)
			return LANDLOCK_ABI_VERSION;
		return -EINVAL;
	}
	int err = copy_ruleset_attr(&a, attr, size);
	if (err)
		return err;
	if (a.handled_access_fs & ~LANDLOCK_MASK_ACCESS_FS)
		return -EINVAL;
	if (!a.handled_access_fs)
		return -ENOMSG;
	struct landlock_ruleset *rs = kzalloc(sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	mutex_init(&rs->lock, "landlock_ruleset");
	rs->handled = (u16)a.handled_access_fs;
	int fd = anon_inode_getfd(&ruleset_fops, rs, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		kfree(rs);
	return fd;
}

/* The ruleset open on fd, held in *f (fdput): -EBADF for no fd, -EBADFD for another kind. */
static int
ruleset_from_fd(int fd, struct fd *f, struct landlock_ruleset **out)
{
	*f = fdget(fd);
	if (!f->file)
		return -EBADF;
	if (f->file->ops != &ruleset_fops) {
		fdput(*f);
		return -EBADFD;
	}
	*out = f->file->private;
	return 0;
}

/* Adds access on inode to rs, or widens the rule it has. */
static int
ruleset_add(struct landlock_ruleset *rs, struct inode *inode, u16 access)
{
	int err = 0;

	mutex_lock(&rs->lock);
	for (int i = 0; i < rs->nrules; i++)
		if (rs->rules[i].inode == inode) {
			rs->rules[i].access |= access;
			goto out;
		}
	if (rs->nrules == rs->capacity) {
		int capacity = rs->capacity ? 2 * rs->capacity : 8;
		struct landlock_rule *rules = kmalloc(capacity * sizeof(*rules));
		if (!rules) {
			err = -ENOMEM;
			goto out;
		}
		for (int i = 0; i < rs->nrules; i++)
			rules[i] = rs->rules[i];
		kfree(rs->rules);
		rs->rules = rules;
		rs->capacity = capacity;
	}
	rs->rules[rs->nrules++] = (struct landlock_rule){ inode_get(inode), access };
out:
	mutex_unlock(&rs->lock);
	return err;
}

/*
 * A path-beneath rule: the parent fd names a file in a file system one
 * can mount (a pipe, a socket, a ruleset: -EBADFD), and only a directory
 * takes rights beyond a file's own (execute, write, read).
 */
static int
add_path_beneath(struct landlock_ruleset *rs, const void __user *uattr)
{
	struct landlock_path_beneath_attr a;

	if (copy_from_user(&a, uattr, sizeof(a)))
		return -EFAULT;
	if (!a.allowed_access)
		return -ENOMSG;
	if (a.allowed_access & ~(unsigned long long)rs->handled)
		return -EINVAL;
	struct fd parent = fdget_raw(a.parent_fd);
	if (!parent.file)
		return -EBADF;
	struct dentry *d = parent.file->dentry;
	int err = 0;
	if (!d)
		err = -EBADFD;
	else if (!S_ISDIR(d->inode->mode) && (a.allowed_access & ~LANDLOCK_ACCESS_FILE))
		err = -EINVAL;
	else
		err = ruleset_add(rs, d->inode, (u16)a.allowed_access);
	fdput(parent);
	return err;
}

SYSCALL4(landlock_add_rule, int, ruleset_fd, u32, rule_type, const void __user *, rule_attr, u32,
	 flags)
{
	struct landlock_ruleset *rs;
	struct fd f;

	if (flags)
		return -EINVAL;
	int err = ruleset_from_fd(ruleset_fd, &f, &rs);
	if (err)
		return err;
	err = rule_type == LANDLOCK_RULE_PATH_BENEATH ? add_path_beneath(rs, rule_attr) : -EINVAL;
	fdput(f);
	return err;
}

/* A new layer: a frozen copy of rs on top of parent (whose reference it takes over). */
static struct landlock_domain *
domain_make(struct landlock_ruleset *rs, struct landlock_domain *parent)
{
	mutex_lock(&rs->lock);
	struct landlock_domain *dom = kmalloc(sizeof(*dom) + rs->nrules * sizeof(dom->rules[0]));
	if (dom) {
		dom->refs = 1;
		dom->level = parent ? parent->level + 1 : 0;
		dom->parent = parent;
		dom->handled = rs->handled;
		dom->nrules = rs->nrules;
		for (int i = 0; i < rs->nrules; i++)
			dom->rules[i] = (struct landlock_rule){ inode_get(rs->rules[i].inode),
								rs->rules[i].access };
	}
	mutex_unlock(&rs->lock);
	return dom;
}

/*
 * Puts a new layer on the process's domain. Without no_new_privs only
 * CAP_SYS_ADMIN may (EPERM, asked first as Linux does), so that a
 * restricted process cannot fool a set-user-ID program it runs.
 */
static int
restrict_self(struct landlock_ruleset *rs)
{
	struct task *leader = current()->group_leader;

	for (;;) {
		struct landlock_domain *old = landlock_current_domain();
		if (old && old->level + 1 >= LANDLOCK_MAX_LAYERS) {
			landlock_domain_put(old);
			return -E2BIG;
		}
		struct landlock_domain *dom = domain_make(rs, old);
		if (!dom) {
			landlock_domain_put(old);
			return -ENOMEM;
		}
		u64 flags = spin_lock_irqsave(&tasks_lock);
		bool unchanged =
			leader->landlock == old; /* no other thread stacked one meanwhile */
		if (unchanged)
			leader->landlock = dom;
		spin_unlock_irqrestore(&tasks_lock, flags);
		landlock_domain_put(unchanged ? old
					      : dom); /* the leader's old reference, or ours */
		if (unchanged)
			return 0;
	}
}

SYSCALL2(landlock_restrict_self, int, ruleset_fd, u32, flags)
{
	struct landlock_ruleset *rs;
	struct fd f;

	if (!READ_ONCE(current()->group_leader->no_new_privs) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (flags)
		return -EINVAL;
	int err = ruleset_from_fd(ruleset_fd, &f, &rs);
	if (err)
		return err;
	err = restrict_self(rs);
	fdput(f);
	return err;
}
