/*
 * ioctls.h - the ioctl(2) request numbers rewind answers, Linux x86-64's
 * (asm-generic/ioctls.h): the terminal's, those every file understands,
 * and the sockets' (linux/sockios.h). libc's <sys/ioctl.h> and <termios.h> have the same names:
 * user code includes those.
 */
#ifndef REWIND_UAPI_IOCTLS_H
#define REWIND_UAPI_IOCTLS_H

#define TCGETS	   0x5401
#define TCSETS	   0x5402
#define TCSETSW	   0x5403
#define TCSETSF	   0x5404
#define TCFLSH	   0x540b
#define TIOCSCTTY  0x540e
#define TIOCGPGRP  0x540f
#define TIOCSPGRP  0x5410
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define TIOCOUTQ   0x5411
#define TIOCSTI	   0x5412
#define FIONREAD   0x541b
#define FIONBIO	   0x5421
#define TIOCNOTTY  0x5422
#define TIOCGSID   0x5429
#define FIONCLEX   0x5450
#define FIOCLEX	   0x5451
#define FIOASYNC   0x5452 /* int: O_ASYNC on or off, as F_SETFL */

/* Sockets' (linux/sockios.h, asm/sockios.h): bytes to read, bytes sent but unread, at the mark */
#define SIOCINQ	   FIONREAD
#define SIOCOUTQ   TIOCOUTQ
#define SIOCATMARK 0x8905

/* Network devices' (linux/sockios.h), on any socket: the list, and one device by name */
#define SIOCGIFCONF   0x8912
#define SIOCGIFFLAGS  0x8913
#define SIOCSIFFLAGS  0x8914
#define SIOCGIFMTU    0x8921
#define SIOCGIFINDEX  0x8933
#define SIOCGIFTXQLEN 0x8942

/* TCFLSH's queue selector */
#define TCIFLUSH  0
#define TCOFLUSH  1
#define TCIOFLUSH 2

#endif
