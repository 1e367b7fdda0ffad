/*
 * nsfs.h - the ioctls on a namespace's file (/proc/<pid>/ns/<kind>),
 * Linux's values (linux/nsfs.h: _IO(0xb7, n)).
 */
#ifndef REWIND_UAPI_NSFS_H
#define REWIND_UAPI_NSFS_H

#define NSIO		 0xb7
#define NS_GET_USERNS	 0xb701 /* a file for the owning user namespace */
#define NS_GET_PARENT	 0xb702 /* a file for the parent (pid and user namespaces) */
#define NS_GET_NSTYPE	 0xb703 /* the kind, as its CLONE_NEW* flag */
#define NS_GET_OWNER_UID 0xb704 /* a user namespace's owner, into a uid_t */

#endif
