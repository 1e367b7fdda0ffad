/*
 * random.h - getrandom(2)'s flags and the ioctls of /dev/random and
 * /dev/urandom, Linux's values (linux/random.h). libc's <sys/random.h>
 * has the flags: user code includes that.
 */
#ifndef REWIND_UAPI_RANDOM_H
#define REWIND_UAPI_RANDOM_H

#define GRND_NONBLOCK 1
#define GRND_RANDOM   2

#define RNDGETENTCNT	 0x80045200 /* _IOR('R', 0, int): the entropy count, in bits */
#define RNDADDTOENTCNT	 0x40045201 /* _IOW('R', 1, int): credit that many bits */
#define RNDADDENTROPY	 0x40085203 /* _IOW('R', 3, int[2]): {bits, len}, then len bytes to mix */
#define RNDZAPENTCNT	 0x5204	    /* _IO('R', 4): no effect since Linux 5.18 */
#define RNDCLEARPOOL	 0x5206	    /* _IO('R', 6): neither */
#define RNDRESEEDCRNG	 0x5207	    /* _IO('R', 7): reseed the generator now */
#define RANDOM_POOL_BITS 256	    /* Linux's POOL_BITS: the count's ceiling, /proc's poolsize */

#endif
