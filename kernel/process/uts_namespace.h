/*
 * uts_namespace.h - the UTS namespace (Linux's struct uts_namespace): the
 * host name and NIS domain name uname(2) reports, one pair per namespace,
 * set by sethostname, setdomainname and /proc/sys/kernel/{hostname,
 * domainname}. See kernel/process/uts_namespace.c.
 */
#ifndef REWIND_PROCESS_UTS_NAMESPACE_H
#define REWIND_PROCESS_UTS_NAMESPACE_H

#include "kernel/process/nsproxy.h"
#include "locking/spinlock.h"
#include "uapi/utsname.h"

struct uts_namespace {
	struct ns_common ns;
	struct spinlock lock; /* over the names: a reader sees each whole */
	char nodename[__NEW_UTS_LEN + 1];
	char domainname[__NEW_UTS_LEN + 1];
};

extern struct uts_namespace init_uts_ns;
extern const struct ns_ops uts_ns_ops;

/* A new namespace with old's names, or NULL (no memory). */
struct uts_namespace *uts_ns_copy(struct uts_namespace *old);
struct uts_namespace *uts_ns_get(struct uts_namespace *uts);
void uts_ns_put(struct uts_namespace *uts);

enum uts_name { UTS_HOSTNAME, UTS_DOMAINNAME };

/* The caller's namespace's names into u's nodename and domainname. */
void uts_read_names(struct kernel_utsname *u);
/* Sets one name of the caller's namespace to name[0..len) (a kernel copy, len <= 64). */
void uts_set_name(enum uts_name which, const char *name, size_t len);

#endif
