/*
 * keyctl.h - the key retention service's ABI (Linux's linux/keyctl.h and
 * the permission bits of linux/key.h): the special keyring ids, the
 * request_key default keyrings, the keyctl commands and a key's
 * permission mask (possessor, user, group, other).
 */
#ifndef REWIND_UAPI_KEYCTL_H
#define REWIND_UAPI_KEYCTL_H

/* Special ids: the caller's own keyrings, named without their serials. */
#define KEY_SPEC_THREAD_KEYRING	      -1
#define KEY_SPEC_PROCESS_KEYRING      -2
#define KEY_SPEC_SESSION_KEYRING      -3
#define KEY_SPEC_USER_KEYRING	      -4
#define KEY_SPEC_USER_SESSION_KEYRING -5
#define KEY_SPEC_GROUP_KEYRING	      -6
#define KEY_SPEC_REQKEY_AUTH_KEY      -7
#define KEY_SPEC_REQUESTOR_KEYRING    -8

/* KEYCTL_SET_REQKEY_KEYRING: where request_key links what it makes. */
#define KEY_REQKEY_DEFL_NO_CHANGE	     -1
#define KEY_REQKEY_DEFL_DEFAULT		     0
#define KEY_REQKEY_DEFL_THREAD_KEYRING	     1
#define KEY_REQKEY_DEFL_PROCESS_KEYRING	     2
#define KEY_REQKEY_DEFL_SESSION_KEYRING	     3
#define KEY_REQKEY_DEFL_USER_KEYRING	     4
#define KEY_REQKEY_DEFL_USER_SESSION_KEYRING 5
#define KEY_REQKEY_DEFL_GROUP_KEYRING	     6
#define KEY_REQKEY_DEFL_REQUESTOR_KEYRING    7

#define KEYCTL_GET_KEYRING_ID	    0
#define KEYCTL_JOIN_SESSION_KEYRING 1
#define KEYCTL_UPDATE		    2
#define KEYCTL_REVOKE		    3
#define KEYCTL_CHOWN		    4
#define KEYCTL_SETPERM		    5
#define KEYCTL_DESCRIBE		    6
#define KEYCTL_CLEAR		    7
#define KEYCTL_LINK		    8
#define KEYCTL_UNLINK		    9
#define KEYCTL_SEARCH		    10
#define KEYCTL_READ		    11
#define KEYCTL_INSTANTIATE	    12
#define KEYCTL_NEGATE		    13
#define KEYCTL_SET_REQKEY_KEYRING   14
#define KEYCTL_SET_TIMEOUT	    15
#define KEYCTL_ASSUME_AUTHORITY	    16
#define KEYCTL_GET_SECURITY	    17
#define KEYCTL_SESSION_TO_PARENT    18
#define KEYCTL_REJECT		    19
#define KEYCTL_INSTANTIATE_IOV	    20
#define KEYCTL_INVALIDATE	    21
#define KEYCTL_GET_PERSISTENT	    22
#define KEYCTL_RESTRICT_KEYRING	    29

/* A key's permission mask: one byte per class, the possessor's highest. */
#define KEY_POS_VIEW	0x01000000
#define KEY_POS_READ	0x02000000
#define KEY_POS_WRITE	0x04000000
#define KEY_POS_SEARCH	0x08000000
#define KEY_POS_LINK	0x10000000
#define KEY_POS_SETATTR 0x20000000
#define KEY_POS_ALL	0x3f000000

#define KEY_USR_VIEW	0x00010000
#define KEY_USR_READ	0x00020000
#define KEY_USR_WRITE	0x00040000
#define KEY_USR_SEARCH	0x00080000
#define KEY_USR_LINK	0x00100000
#define KEY_USR_SETATTR 0x00200000
#define KEY_USR_ALL	0x003f0000

#define KEY_GRP_ALL 0x00003f00
#define KEY_OTH_ALL 0x0000003f

#endif
