/*
 * fcntl.h - open(2) flags, the *at(2) flags, fcntl(2) commands, lseek(2)
 * whences, flock(2) operations and access(2) modes: Linux x86-64's values (asm-generic/fcntl.h,
 * linux/fcntl.h, linux/fs.h). libc's <fcntl.h> and <unistd.h> define the
 * same names (with other spellings of the values): user code includes
 * those, not this.
 */
#ifndef REWIND_UAPI_FCNTL_H
#define REWIND_UAPI_FCNTL_H

/* open(2) flags, in octal as in Linux's asm-generic/fcntl.h. */
#define O_ACCMODE   00000003
#define O_RDONLY    00000000
#define O_WRONLY    00000001
#define O_RDWR	    00000002
#define O_CREAT	    00000100
#define O_EXCL	    00000200
#define O_NOCTTY    00000400
#define O_TRUNC	    00001000
#define O_APPEND    00002000
#define O_NONBLOCK  00004000
#define O_DSYNC	    00010000
#define O_ASYNC	    00020000
#define O_DIRECT    00040000
#define O_LARGEFILE 00100000
#define O_DIRECTORY 00200000
#define O_NOFOLLOW  00400000
#define O_NOATIME   01000000
#define O_CLOEXEC   02000000
#define __O_SYNC    04000000
#define O_PATH	    010000000
#define __O_TMPFILE 020000000

#define AT_FDCWD	    (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR	    0x200 /* unlinkat */
#define AT_EACCESS	    0x200 /* faccessat */
#define AT_SYMLINK_FOLLOW   0x400 /* linkat */
#define AT_NO_AUTOMOUNT	    0x800
#define AT_EMPTY_PATH	    0x1000
#define AT_RECURSIVE	    0x8000 /* mount_setattr: the whole subtree */

/* fcntl(2) */
#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_SETOWN	8 /* the process (or -group) a file's signals go to */
#define F_GETOWN	9
#define F_SETOWN_EX	15 /* the owner as a struct kernel_f_owner_ex: a thread, process or group */
#define F_GETOWN_EX	16
#define F_DUPFD_CLOEXEC 1030
#define F_SETPIPE_SZ	1031 /* a pipe's buffer size (F_LINUX_SPECIFIC_BASE + 7) */
#define F_GETPIPE_SZ	1032
/* File seals (memfd_create's files): F_LINUX_SPECIFIC_BASE + 9 and + 10, and the seals. */
#define F_ADD_SEALS	    1033
#define F_GET_SEALS	    1034
#define F_SEAL_SEAL	    0x0001 /* no more seals may be added */
#define F_SEAL_SHRINK	    0x0002
#define F_SEAL_GROW	    0x0004
#define F_SEAL_WRITE	    0x0008
#define F_SEAL_FUTURE_WRITE 0x0010 /* as F_SEAL_WRITE, but mappings made before may still write */

/* POSIX record locks: fcntl's commands, l_type's values and the record (asm-generic/fcntl.h). */
#define F_GETLK	 5
#define F_SETLK	 6
#define F_SETLKW 7
#define F_RDLCK	 0
#define F_WRLCK	 1
#define F_UNLCK	 2
/* The same on locks owned by the open file description (Linux's OFD locks, since 3.15). */
#define F_OFD_GETLK  36
#define F_OFD_SETLK  37
#define F_OFD_SETLKW 38
/* The signal F_SETOWN's owner gets for I/O and lease breaks; 0: SIGIO (asm-generic/fcntl.h). */
#define F_SETSIG 10
#define F_GETSIG 11
/* File leases (F_LINUX_SPECIFIC_BASE + 0 and + 1): arg and result F_RDLCK, F_WRLCK, F_UNLCK. */
#define F_SETLEASE 1024
#define F_GETLEASE 1025
/* Directory notification (dnotify, F_LINUX_SPECIFIC_BASE + 2): arg is DN_* bits; 0 stops it. */
#define F_NOTIFY     1026
#define DN_ACCESS    0x00000001 /* a file in it was read */
#define DN_MODIFY    0x00000002 /* written or truncated */
#define DN_CREATE    0x00000004 /* a name made (or moved in) */
#define DN_DELETE    0x00000008 /* a name removed (or moved out) */
#define DN_RENAME    0x00000010 /* a name in it renamed */
#define DN_ATTRIB    0x00000020 /* attributes changed */
#define DN_MULTISHOT 0x80000000 /* stay after the first signal */

struct kernel_flock {
	short l_type;
	short l_whence; /* SEEK_SET, SEEK_CUR or SEEK_END: what l_start counts from */
	long l_start;
	long l_len; /* 0: to the end of the file, however long it grows; negative: before l_start */
	int l_pid;  /* F_GETLK: the process holding the lock in the way */
};
#define FD_CLOEXEC 1

/* F_SETOWN_EX's and F_GETOWN_EX's owner: type says what pid names. */
struct kernel_f_owner_ex {
	int type;
	int pid; /* 0: no owner */
};
#define F_OWNER_TID  0 /* that thread alone */
#define F_OWNER_PID  1 /* the process (F_SETOWN with a positive id) */
#define F_OWNER_PGRP 2 /* each process of the group (F_SETOWN with a negative id) */

/* flock(2)'s operations (asm-generic/fcntl.h); LOCK_MAND is accepted and ignored, as Linux. */
#define LOCK_SH	  1
#define LOCK_EX	  2
#define LOCK_NB	  4
#define LOCK_UN	  8
#define LOCK_MAND 32

/* lseek(2) */
#define SEEK_SET  0
#define SEEK_CUR  1
#define SEEK_END  2
#define SEEK_DATA 3
#define SEEK_HOLE 4

/* splice(2), tee(2), vmsplice(2) flags (Linux's linux/splice.h) */
#define SPLICE_F_MOVE	  1
#define SPLICE_F_NONBLOCK 2
#define SPLICE_F_MORE	  4
#define SPLICE_F_GIFT	  8

/* preadv2(2), pwritev2(2) flags (Linux's linux/fs.h) */
#define RWF_HIPRI  0x01
#define RWF_DSYNC  0x02
#define RWF_SYNC   0x04
#define RWF_NOWAIT 0x08
#define RWF_APPEND 0x10

/* access(2), faccessat(2) */
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4

#endif
