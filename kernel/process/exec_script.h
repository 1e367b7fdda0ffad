/*
 * exec_script.h - "#!" scripts for execve (Linux's binfmt_script): the
 * interpreter a script names, and the one argument it may give it.
 */
#ifndef REWIND_EXEC_SCRIPT_H
#define REWIND_EXEC_SCRIPT_H

#define SCRIPT_LINE_MAX 256 /* the bytes of a script's first line looked at (BINPRM_BUF_SIZE) */

/*
 * Reads the file at path (which must be executable) into buf, of
 * SCRIPT_LINE_MAX + 1 bytes; if it is a script, points *name at its
 * interpreter and *arg at the optional argument (NULL if none), both
 * inside buf. 0 for a script, 1 for another file, -errno for a file that
 * cannot be executed or a "#!" line without an interpreter (ENOEXEC).
 */
int script_read(const char *path, char *buf, char **name, char **arg);

#endif
