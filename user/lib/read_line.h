/*
 * read_line.h - reading a line from a file descriptor without reading
 * ahead of it (the shell, user/sh.c).
 */
#ifndef USER_READ_LINE_H
#define USER_READ_LINE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Reads one line without its newline. It reads byte by byte on purpose:
 * when commands come through a pipe, a program we start reads the same
 * stdin right after its line, so we must not swallow lines ahead of it.
 * Returns the length, -1 at end of input, -2 for a line that did not fit
 * (it is consumed and dropped).
 */
ssize_t read_line(int fd, char *buf, size_t size);

#endif
