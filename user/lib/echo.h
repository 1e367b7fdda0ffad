/*
 * echo.h - echo's words, and the report of a failed write to stdout, shared
 * by the shell's builtins (user/sh.c) and /bin/echo (user/bin/echo.c).
 *
 * A write can fail where the reader refuses it (a knob file refuses a
 * value with EINVAL) or where there is no room (/dev/full): a program that
 * writes must say so and fail, as bash's builtins and coreutils do, or a
 * user believes that what was refused was done.
 */
#ifndef USER_ECHO_H
#define USER_ECHO_H

/* Prints argv[1..] separated by blanks, then a newline unless argv[1] is -n. */
void echo_words(int argc, char **argv);

/*
 * Flushes stdout; if it or any earlier write to stdout failed, prints
 * "WHO: write error: REASON" on stderr (bash's words) and returns 1, else 0.
 */
int report_write_error(const char *who);

#endif
