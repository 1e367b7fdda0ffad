/*
 * falloc.h - fallocate(2)'s mode bits (Linux's linux/falloc.h). The first
 * two are spelled as musl's <fcntl.h> spells them, so that a user program
 * may include both.
 */
#ifndef REWIND_UAPI_FALLOC_H
#define REWIND_UAPI_FALLOC_H

#define FALLOC_FL_KEEP_SIZE	 1
#define FALLOC_FL_PUNCH_HOLE	 2
#define FALLOC_FL_NO_HIDE_STALE	 0x04
#define FALLOC_FL_COLLAPSE_RANGE 0x08
#define FALLOC_FL_ZERO_RANGE	 0x10
#define FALLOC_FL_INSERT_RANGE	 0x20
#define FALLOC_FL_UNSHARE_RANGE	 0x40

#endif
