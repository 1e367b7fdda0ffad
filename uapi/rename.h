/*
 * rename.h - renameat2(2)'s flags: Linux x86-64's values (linux/fs.h).
 * Not every libc names them (musl's <stdio.h> only lately), so user code
 * may include this.
 */
#ifndef REWIND_UAPI_RENAME_H
#define REWIND_UAPI_RENAME_H

#define RENAME_NOREPLACE (1 << 0) /* EEXIST rather than replace */
#define RENAME_EXCHANGE	 (1 << 1) /* swap the two names */
#define RENAME_WHITEOUT	 (1 << 2) /* leave an overlayfs whiteout at the old name */

#endif
