/*
 * membarrier.h - membarrier's commands and flag, Linux's (linux/membarrier.h).
 * musl has no header for them, so the user suites include this one.
 */
#ifndef REWIND_UAPI_MEMBARRIER_H
#define REWIND_UAPI_MEMBARRIER_H

#define MEMBARRIER_CMD_QUERY				    0
#define MEMBARRIER_CMD_GLOBAL				    (1 << 0)
#define MEMBARRIER_CMD_GLOBAL_EXPEDITED			    (1 << 1)
#define MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED	    (1 << 2)
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED		    (1 << 3)
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED	    (1 << 4)
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE	    (1 << 5)
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE (1 << 6)
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ		    (1 << 7)
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ	    (1 << 8)

#define MEMBARRIER_CMD_FLAG_CPU (1 << 0) /* the RSEQ command's: one CPU, cpu_id */

#endif
