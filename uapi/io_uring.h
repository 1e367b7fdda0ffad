/*
 * io_uring.h - the io_uring interface as Linux 6.1's uapi/linux/io_uring.h
 * lays it out: io_uring_setup's parameters and the ring offsets it reports,
 * the 64-byte submission entry, the 16-byte completion entry, the operation
 * codes, io_uring_enter's and io_uring_register's flags and codes, and the
 * probe record. Only the names rewind builds or refuses on purpose.
 */
#ifndef REWIND_UAPI_IO_URING_H
#define REWIND_UAPI_IO_URING_H

/* A submission queue entry: one operation the program asks for. */
struct io_uring_sqe {
	unsigned char opcode;  /* IORING_OP_* */
	unsigned char flags;   /* IOSQE_* */
	unsigned short ioprio; /* the request's I/O priority */
	int fd;		       /* the file, or an index into the registered files */
	union {
		unsigned long long off; /* the file offset (-1: the file's own) */
		unsigned long long addr2;
	};
	unsigned long long addr; /* the buffer, iovec array or path */
	unsigned len;		 /* the buffer's length or the iovec count */
	union {			 /* the operation's own flags */
		int rw_flags;
		unsigned fsync_flags;
		unsigned poll32_events;
		unsigned timeout_flags;
		unsigned msg_flags;
		unsigned open_flags;
		unsigned statx_flags;
	};
	unsigned long long user_data; /* given back in the completion */
	unsigned short buf_index;     /* READ_FIXED, WRITE_FIXED: which registered buffer */
	unsigned short personality;
	union {
		int splice_fd_in;
		unsigned file_index;
	};
	unsigned long long addr3;
	unsigned long long pad2[1];
};

/* sqe->flags */
#define IOSQE_FIXED_FILE       (1u << 0) /* fd indexes the registered files */
#define IOSQE_IO_DRAIN	       (1u << 1) /* starts once every earlier request completed */
#define IOSQE_IO_LINK	       (1u << 2) /* the next entry runs only if this one succeeds */
#define IOSQE_IO_HARDLINK      (1u << 3) /* the next entry runs whatever this one gives */
#define IOSQE_ASYNC	       (1u << 4) /* do not try inline first */
#define IOSQE_BUFFER_SELECT    (1u << 5)
#define IOSQE_CQE_SKIP_SUCCESS (1u << 6)

enum {
	IORING_OP_NOP,
	IORING_OP_READV,
	IORING_OP_WRITEV,
	IORING_OP_FSYNC,
	IORING_OP_READ_FIXED,
	IORING_OP_WRITE_FIXED,
	IORING_OP_POLL_ADD,
	IORING_OP_POLL_REMOVE,
	IORING_OP_SYNC_FILE_RANGE,
	IORING_OP_SENDMSG,
	IORING_OP_RECVMSG,
	IORING_OP_TIMEOUT,
	IORING_OP_TIMEOUT_REMOVE,
	IORING_OP_ACCEPT,
	IORING_OP_ASYNC_CANCEL,
	IORING_OP_LINK_TIMEOUT,
	IORING_OP_CONNECT,
	IORING_OP_FALLOCATE,
	IORING_OP_OPENAT,
	IORING_OP_CLOSE,
	IORING_OP_FILES_UPDATE,
	IORING_OP_STATX, /* fd the directory, addr the path, len the mask, addr2 the buffer */
	IORING_OP_READ,
	IORING_OP_WRITE,
	IORING_OP_LAST = 49, /* 6.1's count: SEND_ZC, SENDMSG_ZC are the last two */
};

/* sqe->fsync_flags */
#define IORING_FSYNC_DATASYNC (1u << 0)

/* sqe->len of a POLL_ADD */
#define IORING_POLL_ADD_MULTI (1u << 0)

/* A completion queue entry: what an operation gave. */
struct io_uring_cqe {
	unsigned long long user_data; /* the submission's */
	int res;		      /* the result, as the system call's (-errno) */
	unsigned flags;		      /* IORING_CQE_F_* */
};

#define IORING_CQE_F_MORE (1u << 1) /* a multishot poll will complete again */

/* Where the rings are mapped: mmap's offset names the region. */
#define IORING_OFF_SQ_RING 0ull
#define IORING_OFF_CQ_RING 0x8000000ull
#define IORING_OFF_SQES	   0x10000000ull

/* Where each field of the submission ring is, from the start of its mapping. */
struct io_sqring_offsets {
	unsigned head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	unsigned long long resv2;
};

/* The submission ring's flags word */
#define IORING_SQ_NEED_WAKEUP (1u << 0)
#define IORING_SQ_CQ_OVERFLOW (1u << 1) /* completions wait in the kernel for room */

/* Where each field of the completion ring is. */
struct io_cqring_offsets {
	unsigned head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	unsigned long long resv2;
};

/* io_uring_setup's flags */
#define IORING_SETUP_IOPOLL	   (1u << 0)
#define IORING_SETUP_SQPOLL	   (1u << 1)
#define IORING_SETUP_SQ_AFF	   (1u << 2)
#define IORING_SETUP_CQSIZE	   (1u << 3) /* cq_entries says the completion ring's size */
#define IORING_SETUP_CLAMP	   (1u << 4) /* sizes past the maximum are cut, not refused */
#define IORING_SETUP_ATTACH_WQ	   (1u << 5)
#define IORING_SETUP_R_DISABLED	   (1u << 6)
#define IORING_SETUP_SUBMIT_ALL	   (1u << 7) /* an entry that fails does not stop the batch */
#define IORING_SETUP_COOP_TASKRUN  (1u << 8)
#define IORING_SETUP_TASKRUN_FLAG  (1u << 9)
#define IORING_SETUP_SQE128	   (1u << 10)
#define IORING_SETUP_CQE32	   (1u << 11)
#define IORING_SETUP_SINGLE_ISSUER (1u << 12)
#define IORING_SETUP_DEFER_TASKRUN (1u << 13)

struct io_uring_params {
	unsigned sq_entries;
	unsigned cq_entries;
	unsigned flags;
	unsigned sq_thread_cpu;
	unsigned sq_thread_idle;
	unsigned features;
	unsigned wq_fd;
	unsigned resv[3];
	struct io_sqring_offsets sq_off;
	struct io_cqring_offsets cq_off;
};

/* io_uring_params.features */
#define IORING_FEAT_SINGLE_MMAP	  (1u << 0) /* one mapping serves both rings */
#define IORING_FEAT_NODROP	  (1u << 1) /* a full completion ring keeps the rest */
#define IORING_FEAT_SUBMIT_STABLE (1u << 2) /* entries are copied at submission */
#define IORING_FEAT_RW_CUR_POS	  (1u << 3) /* offset -1 reads at the file's position */
#define IORING_FEAT_EXT_ARG	  (1u << 8) /* io_uring_enter takes struct io_uring_getevents_arg */

/* IORING_ENTER_EXT_ARG: what argp points to (argsz its size), a signal mask and a timeout. */
struct io_uring_getevents_arg {
	unsigned long long sigmask;
	unsigned sigmask_sz;
	unsigned pad;
	unsigned long long ts; /* a struct timespec: how long to wait (-ETIME when it passes) */
};

/* io_uring_enter's flags */
#define IORING_ENTER_GETEVENTS	     (1u << 0)
#define IORING_ENTER_SQ_WAKEUP	     (1u << 1)
#define IORING_ENTER_SQ_WAIT	     (1u << 2)
#define IORING_ENTER_EXT_ARG	     (1u << 3)
#define IORING_ENTER_REGISTERED_RING (1u << 4)

/* io_uring_register's codes */
enum {
	IORING_REGISTER_BUFFERS,
	IORING_UNREGISTER_BUFFERS,
	IORING_REGISTER_FILES,
	IORING_UNREGISTER_FILES,
	IORING_REGISTER_EVENTFD,
	IORING_UNREGISTER_EVENTFD,
	IORING_REGISTER_FILES_UPDATE,
	IORING_REGISTER_EVENTFD_ASYNC,
	IORING_REGISTER_PROBE,
};

/* REGISTER_PROBE's answer: which operations this kernel has. */
struct io_uring_probe_op {
	unsigned char op;
	unsigned char resv;
	unsigned short flags; /* IO_URING_OP_SUPPORTED */
	unsigned resv2;
};

struct io_uring_probe {
	unsigned char last_op; /* the highest operation code known */
	unsigned char ops_len; /* how many ops[] were filled */
	unsigned short resv;
	unsigned resv2[3];
	struct io_uring_probe_op ops[];
};

#define IO_URING_OP_SUPPORTED (1u << 0)

#endif
