/*
 * msg.c - System V message queues (Linux's ipc/msg.c).
 */
#include "ipc/util.h"
#include "fs/proc/text.h"

unsigned long msg_ctlmax = 8192, msg_ctlmnb = 16384, msg_ctlmni = 32000;

void
msg_proc_show(struct procbuf *b)
{
	procbuf_printf(
		b,
		"       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime\n");
}
