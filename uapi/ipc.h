/*
 * ipc.h - System V IPC's ABI (Linux's linux/ipc.h, linux/shm.h,
 * linux/msg.h, linux/sem.h and x86-64's asm/shmbuf.h, asm/sembuf.h): the
 * flags and commands of shmget/msgget/semget and their *ctl calls, and the
 * 64-bit structures those calls copy (the kernel only speaks IPC_64).
 */
#ifndef REWIND_UAPI_IPC_H
#define REWIND_UAPI_IPC_H

#define IPC_PRIVATE 0
#define IPC_CREAT   001000
#define IPC_EXCL    002000
#define IPC_NOWAIT  004000

#define IPC_RMID 0
#define IPC_SET	 1
#define IPC_STAT 2
#define IPC_INFO 3
#define IPC_64	 0x0100 /* the "new" layouts, which glibc always asks for */

struct kernel_ipc64_perm {
	int key;
	unsigned int uid, gid, cuid, cgid;
	unsigned int mode; /* glibc reads the low 16 bits as mode, the high as padding */
	unsigned short seq;
	unsigned short pad2;
	unsigned long unused1, unused2;
};

/* shmget/shmat flags, shmctl commands, the mode bits a segment shows. */
#define SHM_HUGETLB   004000
#define SHM_NORESERVE 010000
#define SHM_RDONLY    010000
#define SHM_RND	      020000
#define SHM_REMAP     040000
#define SHM_EXEC      0100000
#define SHM_LOCK      11
#define SHM_UNLOCK    12
#define SHM_STAT      13
#define SHM_INFO      14
#define SHM_STAT_ANY  15
#define SHM_DEST      01000 /* removed, lives until its last detach */
#define SHM_LOCKED    02000
#define SHMLBA	      4096

struct kernel_shmid64_ds {
	struct kernel_ipc64_perm shm_perm;
	unsigned long shm_segsz;
	long shm_atime, shm_dtime, shm_ctime;
	int shm_cpid, shm_lpid;
	unsigned long shm_nattch;
	unsigned long unused4, unused5;
};

struct kernel_shminfo64 {
	unsigned long shmmax, shmmin, shmmni, shmseg, shmall;
	unsigned long unused1, unused2, unused3, unused4;
};

struct kernel_shm_info {
	int used_ids;
	unsigned long shm_tot, shm_rss, shm_swp, swap_attempts, swap_successes;
};

/* msgrcv flags, msgctl commands. */
#define MSG_STAT     11
#define MSG_INFO     12
#define MSG_STAT_ANY 13
#define MSG_NOERROR  010000
#define MSG_EXCEPT   020000
#define MSG_COPY     040000

struct kernel_msqid64_ds {
	struct kernel_ipc64_perm msg_perm;
	long msg_stime, msg_rtime, msg_ctime;
	unsigned long msg_cbytes, msg_qnum, msg_qbytes;
	int msg_lspid, msg_lrpid;
	unsigned long unused4, unused5;
};

struct kernel_msginfo {
	int msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql;
	unsigned short msgseg;
};

/* semop flags, semctl commands. */
#define SEM_UNDO     0x1000
#define GETPID	     11
#define GETVAL	     12
#define GETALL	     13
#define GETNCNT	     14
#define GETZCNT	     15
#define SETVAL	     16
#define SETALL	     17
#define SEM_STAT     18
#define SEM_INFO     19
#define SEM_STAT_ANY 20

struct kernel_semid64_ds {
	struct kernel_ipc64_perm sem_perm;
	long sem_otime;
	unsigned long unused1;
	long sem_ctime;
	unsigned long unused2;
	unsigned long sem_nsems;
	unsigned long unused3, unused4;
};

struct kernel_sembuf {
	unsigned short sem_num;
	short sem_op;
	short sem_flg;
};

struct kernel_seminfo {
	int semmap, semmni, semmns, semmnu, semmsl, semopm, semume, semusz, semvmx, semaem;
};

#endif
