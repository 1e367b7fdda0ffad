/*
 * file_cleanup.h - removing the files a fuzzing run left behind
 * (file_cleanup.c).
 */
#ifndef USER_FILE_CLEANUP_H
#define USER_FILE_CLEANUP_H

#include <sys/stat.h>
#include <sys/types.h>

/* Removes path and everything below it on its file system, as far as it can: how many names. */
int remove_tree(const char *path);

/*
 * Removes every file, symlink and directory on the root file system whose
 * stat match accepts (a directory with all it holds): how many names.
 * Calls note (when not NULL) with each before it goes.
 */
int remove_matching(int (*match)(const struct stat *st),
		    void (*note)(const char *path, const struct stat *st));

#endif
