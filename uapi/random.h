/*
 * random.h - getrandom(2)'s flags, Linux's values (linux/random.h). libc's
 * <sys/random.h> has the same: user code includes that.
 */
#ifndef REWIND_UAPI_RANDOM_H
#define REWIND_UAPI_RANDOM_H

#define GRND_NONBLOCK 1
#define GRND_RANDOM   2

#endif
