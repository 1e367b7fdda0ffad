/*
 * fanotify.h - fanotify's event bits, fanotify_init's and fanotify_mark's
 * flags, struct fanotify_event_metadata and struct fanotify_response,
 * Linux x86-64's (uapi/linux/fanotify.h).
 */
#ifndef REWIND_UAPI_FANOTIFY_H
#define REWIND_UAPI_FANOTIFY_H

/* Events: the same bits as inotify's where both have one. */
#define FAN_ACCESS	   0x00000001u
#define FAN_MODIFY	   0x00000002u
#define FAN_ATTRIB	   0x00000004u
#define FAN_CLOSE_WRITE	   0x00000008u
#define FAN_CLOSE_NOWRITE  0x00000010u
#define FAN_OPEN	   0x00000020u
#define FAN_MOVED_FROM	   0x00000040u
#define FAN_MOVED_TO	   0x00000080u
#define FAN_CREATE	   0x00000100u
#define FAN_DELETE	   0x00000200u
#define FAN_DELETE_SELF	   0x00000400u
#define FAN_MOVE_SELF	   0x00000800u
#define FAN_OPEN_EXEC	   0x00001000u
#define FAN_Q_OVERFLOW	   0x00004000u
#define FAN_FS_ERROR	   0x00008000u
#define FAN_OPEN_PERM	   0x00010000u /* the permission events: the listener answers */
#define FAN_ACCESS_PERM	   0x00020000u
#define FAN_OPEN_EXEC_PERM 0x00040000u
#define FAN_EVENT_ON_CHILD 0x08000000u /* a directory's mark hears its children */
#define FAN_RENAME	   0x10000000u
#define FAN_ONDIR	   0x40000000u /* the mark hears about directories too */
#define FAN_CLOSE	   (FAN_CLOSE_WRITE | FAN_CLOSE_NOWRITE)
#define FAN_MOVE	   (FAN_MOVED_FROM | FAN_MOVED_TO)

/* fanotify_init's flags. */
#define FAN_CLOEXEC	      0x00000001u
#define FAN_NONBLOCK	      0x00000002u
#define FAN_CLASS_NOTIF	      0x00000000u
#define FAN_CLASS_CONTENT     0x00000004u
#define FAN_CLASS_PRE_CONTENT 0x00000008u
#define FAN_UNLIMITED_QUEUE   0x00000010u
#define FAN_UNLIMITED_MARKS   0x00000020u
#define FAN_ENABLE_AUDIT      0x00000040u
#define FAN_REPORT_PIDFD      0x00000080u
#define FAN_REPORT_TID	      0x00000100u
#define FAN_REPORT_FID	      0x00000200u
#define FAN_REPORT_DIR_FID    0x00000400u
#define FAN_REPORT_NAME	      0x00000800u
#define FAN_REPORT_TARGET_FID 0x00001000u

/* fanotify_mark's flags. */
#define FAN_MARK_ADD		     0x00000001u
#define FAN_MARK_REMOVE		     0x00000002u
#define FAN_MARK_DONT_FOLLOW	     0x00000004u
#define FAN_MARK_ONLYDIR	     0x00000008u
#define FAN_MARK_MOUNT		     0x00000010u
#define FAN_MARK_IGNORED_MASK	     0x00000020u
#define FAN_MARK_IGNORED_SURV_MODIFY 0x00000040u
#define FAN_MARK_FLUSH		     0x00000080u
#define FAN_MARK_FILESYSTEM	     0x00000100u
#define FAN_MARK_EVICTABLE	     0x00000200u
#define FAN_MARK_IGNORE		     0x00000400u
#define FAN_MARK_INODE		     0x00000000u

/* One event as read(2) gives it. */
#define FANOTIFY_METADATA_VERSION 3
#define FAN_NOFD		  -1
struct kernel_fanotify_event_metadata {
	unsigned event_len;
	unsigned char vers;
	unsigned char reserved;
	unsigned short metadata_len;
	unsigned long long mask;
	int fd;	 /* the object, opened for the listener; FAN_NOFD for none */
	int pid; /* who caused it: its process, or its thread with FAN_REPORT_TID */
};

/* The listener's answer to a permission event, written to the fanotify fd. */
#define FAN_ALLOW 0x01u
#define FAN_DENY  0x02u
#define FAN_AUDIT 0x10u
struct kernel_fanotify_response {
	int fd;
	unsigned response;
};

#endif
