/*
 * termios.h - the terminal settings TCGETS and TCSETS carry and the
 * window size TIOCGWINSZ reports, Linux x86-64's (asm-generic/termbits.h,
 * asm-generic/termios.h). struct kernel_termios is the kernel's struct
 * termios, which is not libc's (glibc's has 32 control characters and
 * the speeds; libc converts), and every macro here is in libc's
 * <termios.h> too, NCCS with another value: user code includes that.
 */
#ifndef REWIND_UAPI_TERMIOS_H
#define REWIND_UAPI_TERMIOS_H

#define NCCS 19
struct kernel_termios {
	unsigned int c_iflag;
	unsigned int c_oflag;
	unsigned int c_cflag;
	unsigned int c_lflag;
	unsigned char c_line;
	unsigned char c_cc[NCCS];
};

struct kernel_winsize {
	unsigned short ws_row, ws_col;
	unsigned short ws_xpixel, ws_ypixel;
};

/* c_cc indices (asm-generic/termbits.h). */
#define VINTR	 0
#define VQUIT	 1
#define VERASE	 2
#define VKILL	 3
#define VEOF	 4
#define VTIME	 5
#define VMIN	 6
#define VSTART	 8
#define VSTOP	 9
#define VSUSP	 10
#define VEOL	 11
#define VREPRINT 12
#define VDISCARD 13
#define VWERASE	 14
#define VLNEXT	 15
#define VEOL2	 16

/* c_iflag */
#define INLCR 0000100
#define IGNCR 0000200
#define ICRNL 0000400
#define IUTF8 0040000
/* c_oflag */
#define OPOST 0000001
#define ONLCR 0000004
/* c_cflag */
#define CS8	0000060
#define CREAD	0000200
#define B115200 0010002
/* c_lflag */
#define ISIG	0000001
#define ICANON	0000002
#define ECHO	0000010
#define ECHOE	0000020
#define ECHOK	0000040
#define NOFLSH	0000200
#define TOSTOP	0000400
#define ECHOCTL 0001000
#define ECHOKE	0004000

#endif
