/*
 * mount.h - mount(2)'s MS_* flags and umount2(2)'s MNT_* flags, with
 * Linux's values (linux/mount.h, linux/fs.h).
 */
#ifndef REWIND_UAPI_MOUNT_H
#define REWIND_UAPI_MOUNT_H

#define MS_RDONLY      0x1
#define MS_NOSUID      0x2
#define MS_NODEV       0x4
#define MS_NOEXEC      0x8
#define MS_SYNCHRONOUS 0x10
#define MS_REMOUNT     0x20
#define MS_MANDLOCK    0x40
#define MS_DIRSYNC     0x80
#define MS_NOSYMFOLLOW 0x100
#define MS_NOATIME     0x400
#define MS_NODIRATIME  0x800
#define MS_BIND	       0x1000
#define MS_MOVE	       0x2000
#define MS_REC	       0x4000
#define MS_SILENT      0x8000
#define MS_UNBINDABLE  0x20000
#define MS_PRIVATE     0x40000
#define MS_SLAVE       0x80000
#define MS_SHARED      0x100000
#define MS_RELATIME    0x200000
#define MS_STRICTATIME 0x1000000
#define MS_LAZYTIME    0x2000000
/* Before 2.4 the upper 16 bits had to be this magic; Linux still strips it. */
#define MS_MGC_VAL 0xc0ed0000
#define MS_MGC_MSK 0xffff0000

#define MNT_FORCE	0x1
#define MNT_DETACH	0x2
#define MNT_EXPIRE	0x4
#define UMOUNT_NOFOLLOW 0x8
#endif
