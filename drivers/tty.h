/*
 * tty.h - the console terminal: /dev/console and /dev/tty, one device
 * (Linux's major 5, minors 1 and 0). What programs write goes to every
 * kernel console (COM1 and the screen); what is typed on COM1 or the PS/2
 * keyboard goes through the line discipline (drivers/ldisc.h: editing,
 * echo, canonical and raw mode) to read(2). Understands the termios,
 * window-size, process-group and FIONREAD ioctls.
 *
 * Start-up in two steps: vfs_init() calls console_dev_init() (fs/vfs.h),
 * which creates the nodes, so the first process has its stdin, stdout and
 * stderr; tty_init(), once the IOAPIC is up, turns input on.
 */
#ifndef REWIND_TTY_H
#define REWIND_TTY_H

/* Input from COM1 and the keyboard; after ioapic_init(). */
void tty_init(void);
/* A typed byte, from an interrupt handler. */
void tty_receive(char c);

#endif
