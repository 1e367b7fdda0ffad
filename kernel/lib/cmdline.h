/*
 * cmdline.h - splitting the kernel command line into words.
 *
 * Words are separated by spaces or tabs; double quotes group spaces into a
 * word and are removed ("run=\"bench -n 3\"" gives run=bench -n 3).
 * A backslash before a double quote or a backslash is dropped: GRUB's
 * multiboot2 command writes every quote of its arguments as \" and every
 * backslash as \\ (grub_create_loader_cmdline), so a menu entry's
 * run="sh -c x" reaches the kernel as run=\"sh -c x\" and must read the same.
 */
#ifndef REWIND_CMDLINE_H
#define REWIND_CMDLINE_H

#include "kernel/lib/types.h"

/*
 * Copies the next word from *cursor into word (always NUL-terminated) and
 * advances *cursor. Returns the word's full length (larger than size - 1
 * when it was cut), or -1 when no words are left.
 */
int cmdline_next_word(const char **cursor, char *word, size_t size);

/* Splits word at its first '=': returns the value, or NULL for a bare flag. */
char *cmdline_split_value(char *word);

#endif
