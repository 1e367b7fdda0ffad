/*
 * tty.h - the console terminal: /dev/console and /dev/tty, one device
 * (Linux's major 5, minors 1 and 0). What programs write goes to every
 * kernel console (COM1 and the screen); what is typed on COM1 or the PS/2
 * keyboard goes through the line discipline (drivers/ldisc.h: editing,
 * echo, canonical and raw mode) to read(2). Understands the termios,
 * window-size, FIONREAD and job-control ioctls (the controlling terminal,
 * its foreground process group, SIGTTIN and SIGTTOU for the background).
 *
 * Start-up in two steps: vfs_init() calls console_dev_init() (fs/vfs.h),
 * which creates the nodes, so the first process has its stdin, stdout and
 * stderr; tty_init(), once the IOAPIC is up, turns input on.
 */
#ifndef REWIND_TTY_H
#define REWIND_TTY_H

#include "kernel/lib/types.h"

/* Input from COM1 and the keyboard; after ioapic_init(). */
void tty_init(void);
/* A typed byte, from an interrupt handler. */
void tty_receive(char c);
/*
 * Session sid's leader has exited (tasks_lock held): if the terminal was
 * its controlling terminal it is nobody's now. Returns the foreground
 * group it had, for the caller to hang up (SIGHUP), or 0.
 */
int tty_session_ended(int sid);
/*
 * For /proc/<pid>/stat: Linux's tty_nr of the controlling terminal of a
 * task in session sid (not detached from it), and that terminal's
 * foreground group in *fg (-1: none); 0 if it has no controlling terminal.
 * May be called under tasks_lock.
 */
int tty_nr_for(int sid, bool tty_detached, int *fg);

#endif
