/*
 * inotify.h - inotify's event bits, watch flags, init flags and struct
 * inotify_event, Linux x86-64's (uapi/linux/inotify.h).
 */
#ifndef REWIND_UAPI_INOTIFY_H
#define REWIND_UAPI_INOTIFY_H

#include "uapi/fcntl.h"

/* Events: what a watch asks for and what an event reports. */
#define IN_ACCESS	 0x00000001u /* read */
#define IN_MODIFY	 0x00000002u /* written, truncated */
#define IN_ATTRIB	 0x00000004u /* metadata: mode, owner, times, links, xattrs */
#define IN_CLOSE_WRITE	 0x00000008u /* a file open for writing closed */
#define IN_CLOSE_NOWRITE 0x00000010u /* any other file closed */
#define IN_OPEN		 0x00000020u
#define IN_MOVED_FROM	 0x00000040u /* a name left a watched directory */
#define IN_MOVED_TO	 0x00000080u /* a name came into a watched directory */
#define IN_CREATE	 0x00000100u
#define IN_DELETE	 0x00000200u
#define IN_DELETE_SELF	 0x00000400u /* the watched inode's last name went */
#define IN_MOVE_SELF	 0x00000800u
#define IN_CLOSE	 (IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)
#define IN_MOVE		 (IN_MOVED_FROM | IN_MOVED_TO)
#define IN_ALL_EVENTS	 0x00000fffu

/* Sent whatever a watch asks for. */
#define IN_UNMOUNT    0x00002000u
#define IN_Q_OVERFLOW 0x00004000u
#define IN_IGNORED    0x00008000u /* the watch is gone */

/* inotify_add_watch's flags. */
#define IN_ONLYDIR     0x01000000u
#define IN_DONT_FOLLOW 0x02000000u
#define IN_EXCL_UNLINK 0x04000000u /* nothing about children after their unlink */
#define IN_MASK_CREATE 0x10000000u /* only a new watch: EEXIST for an existing one */
#define IN_MASK_ADD    0x20000000u /* add to an existing watch's mask, not replace it */
#define IN_ISDIR       0x40000000u /* in an event: it is about a directory */
#define IN_ONESHOT     0x80000000u

/* inotify_init1's flags. */
#define IN_CLOEXEC  O_CLOEXEC
#define IN_NONBLOCK O_NONBLOCK

/* One event as read(2) gives it: len bytes of name follow, NUL-padded. */
struct kernel_inotify_event {
	int wd;
	unsigned mask;
	unsigned cookie;
	unsigned len;
};

#endif
