/*
 * mount_attr.h - mount_setattr(2)'s struct mount_attr and MOUNT_ATTR_*
 * values, as Linux's (linux/mount.h).
 */
#ifndef REWIND_UAPI_MOUNT_ATTR_H
#define REWIND_UAPI_MOUNT_ATTR_H

#define MOUNT_ATTR_RDONLY      0x00000001
#define MOUNT_ATTR_NOSUID      0x00000002
#define MOUNT_ATTR_NODEV       0x00000004
#define MOUNT_ATTR_NOEXEC      0x00000008
#define MOUNT_ATTR__ATIME      0x00000070 /* the atime setting: one value, not bits */
#define MOUNT_ATTR_RELATIME    0x00000000
#define MOUNT_ATTR_NOATIME     0x00000010
#define MOUNT_ATTR_STRICTATIME 0x00000020
#define MOUNT_ATTR_NODIRATIME  0x00000080
#define MOUNT_ATTR_IDMAP       0x00100000
#define MOUNT_ATTR_NOSYMFOLLOW 0x00200000

struct mount_attr {
	unsigned long long attr_set;
	unsigned long long attr_clr;
	unsigned long long propagation; /* MS_SHARED, MS_SLAVE, MS_PRIVATE or MS_UNBINDABLE */
	unsigned long long userns_fd;
};

#define MOUNT_ATTR_SIZE_VER0 32 /* the first version's size */

#endif
