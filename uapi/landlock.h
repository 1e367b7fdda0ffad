/*
 * landlock.h - the Landlock calls' structures and flags: Linux 6.1's
 * linux/landlock.h (ABI version 2), for the kernel (kernel/landlock/) and
 * for user programs, whose libc may lack the header.
 */
#ifndef REWIND_UAPI_LANDLOCK_H
#define REWIND_UAPI_LANDLOCK_H

/* landlock_create_ruleset's attr: the access rights the ruleset is about. */
struct landlock_ruleset_attr {
	unsigned long long handled_access_fs;
};

/* landlock_create_ruleset's flag: no ruleset, the ABI version as the return value. */
#define LANDLOCK_CREATE_RULESET_VERSION (1u << 0)

/* landlock_add_rule's rule_type, and its attr: a file hierarchy the rights are allowed beneath. */
#define LANDLOCK_RULE_PATH_BENEATH 1

struct landlock_path_beneath_attr {
	unsigned long long allowed_access;
	int parent_fd;
} __attribute__((packed));

/* The file-system access rights (ABI 1 up to MAKE_SYM, ABI 2 adds REFER). */
#define LANDLOCK_ACCESS_FS_EXECUTE     (1ull << 0)
#define LANDLOCK_ACCESS_FS_WRITE_FILE  (1ull << 1)
#define LANDLOCK_ACCESS_FS_READ_FILE   (1ull << 2)
#define LANDLOCK_ACCESS_FS_READ_DIR    (1ull << 3)
#define LANDLOCK_ACCESS_FS_REMOVE_DIR  (1ull << 4)
#define LANDLOCK_ACCESS_FS_REMOVE_FILE (1ull << 5)
#define LANDLOCK_ACCESS_FS_MAKE_CHAR   (1ull << 6)
#define LANDLOCK_ACCESS_FS_MAKE_DIR    (1ull << 7)
#define LANDLOCK_ACCESS_FS_MAKE_REG    (1ull << 8)
#define LANDLOCK_ACCESS_FS_MAKE_SOCK   (1ull << 9)
#define LANDLOCK_ACCESS_FS_MAKE_FIFO   (1ull << 10)
#define LANDLOCK_ACCESS_FS_MAKE_BLOCK  (1ull << 11)
#define LANDLOCK_ACCESS_FS_MAKE_SYM    (1ull << 12)
#define LANDLOCK_ACCESS_FS_REFER       (1ull << 13)

#endif
