/*
 * socket.h - sockets as Linux x86-64 user space sees them: address
 * families, socket types, send and receive flags, socket options, control
 * messages and the structures the calls take (Linux's linux/socket.h,
 * linux/un.h, asm-generic/socket.h). Only what AF_UNIX uses.
 */
#ifndef REWIND_UAPI_SOCKET_H
#define REWIND_UAPI_SOCKET_H

#include "uapi/uio.h"

#define AF_UNSPEC  0
#define AF_UNIX	   1
#define AF_INET	   2
#define AF_INET6   10
#define AF_NETLINK 16
#define AF_MAX	   46 /* Linux 6.1's: families are 0..45 */

#define SOCK_STREAM    1
#define SOCK_DGRAM     2
#define SOCK_SEQPACKET 5
#define SOCK_PACKET    10 /* the highest type number */
#define SOCK_TYPE_MASK 0xf
#define SOCK_CLOEXEC   02000000 /* O_CLOEXEC */
#define SOCK_NONBLOCK  04000	/* O_NONBLOCK */

#define MSG_OOB		 0x1
#define MSG_PEEK	 0x2
#define MSG_CTRUNC	 0x8
#define MSG_TRUNC	 0x20
#define MSG_DONTWAIT	 0x40
#define MSG_EOR		 0x80
#define MSG_WAITALL	 0x100
#define MSG_ERRQUEUE	 0x2000
#define MSG_NOSIGNAL	 0x4000
#define MSG_WAITFORONE	 0x10000
#define MSG_CMSG_CLOEXEC 0x40000000

#define SHUT_RD	  0
#define SHUT_WR	  1
#define SHUT_RDWR 2

#define SOL_SOCKET	1
#define SO_TYPE		3
#define SO_ERROR	4
#define SO_SNDBUF	7
#define SO_RCVBUF	8
#define SO_OOBINLINE	10
#define SO_PASSCRED	16
#define SO_PEERCRED	17
#define SO_RCVTIMEO_OLD 20
#define SO_SNDTIMEO_OLD 21
#define SO_ACCEPTCONN	30
#define SO_SNDBUFFORCE	32
#define SO_RCVBUFFORCE	33
#define SO_PROTOCOL	38
#define SO_DOMAIN	39
#define SO_PEEK_OFF	42
#define SO_RCVTIMEO_NEW 66
#define SO_SNDTIMEO_NEW 67

#define SCM_RIGHTS	1
#define SCM_CREDENTIALS 2
#define SCM_MAX_FD	253 /* files one SCM_RIGHTS message may carry */

#define UNIX_PATH_MAX 108

struct kernel_sockaddr_un {
	unsigned short sun_family;
	char sun_path[UNIX_PATH_MAX];
};

/* Linux's sockaddr_nl (linux/netlink.h): a netlink socket's port id and groups. */
struct kernel_sockaddr_nl {
	unsigned short nl_family;
	unsigned short nl_pad;
	unsigned nl_pid;
	unsigned nl_groups;
};

struct kernel_msghdr {
	void *msg_name;
	int msg_namelen;
	struct kernel_iovec *msg_iov;
	unsigned long msg_iovlen;
	void *msg_control;
	unsigned long msg_controllen;
	unsigned msg_flags;
};

struct kernel_mmsghdr {
	struct kernel_msghdr msg_hdr;
	unsigned msg_len;
};

struct kernel_cmsghdr {
	unsigned long cmsg_len; /* the header and the data after it, unpadded */
	int cmsg_level;
	int cmsg_type;
};

/* Control messages are padded to 8 bytes (Linux's CMSG_ALIGN). */
#define CMSG_ALIGN(len) (((len) + 7ul) & ~7ul)

struct kernel_ucred {
	int pid;
	unsigned uid;
	unsigned gid;
};

#endif
