/*
 * signame.h - signal names as the command line spells them (TERM,
 * SIGTERM, term, 15), for the tools that take one (kill, timeout).
 */
#ifndef USER_SIGNAME_H
#define USER_SIGNAME_H

/* The signal s names (a number from 0 to 64, or a name with or without SIG), or -1. */
int signal_by_name(const char *s);

#endif
