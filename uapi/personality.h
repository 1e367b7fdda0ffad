/*
 * personality.h - personality(2)'s flags (linux/personality.h's numbers)
 * that rewind acts on; the others are kept and returned as given.
 */
#ifndef REWIND_UAPI_PERSONALITY_H
#define REWIND_UAPI_PERSONALITY_H

#define ADDR_NO_RANDOMIZE 0x0040000   /* no random placement (gdb's disable-randomization) */
#define STICKY_TIMEOUTS	  0x4000000   /* select and ppoll leave the caller's timeout as it was */
#define PERSONALITY_QUERY 0xffffffffu /* the argument that only asks */

#endif
