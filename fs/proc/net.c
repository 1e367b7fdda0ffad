/*
 * net.c - /proc/net/{tcp,tcp6,udp,udp6}: the open internet sockets
 * (fs/inet_sock.c) in Linux's format, one line each, which ss, netstat
 * and lsof read: addresses as the hex of their bytes in memory, ports in
 * hex, the state as Linux's TCP state number, the queues, the owner's uid
 * and the socket's inode. The timers, retransmits and kernel pointers
 * Linux shows are zeros here: nothing on the loopback ever waits on them.
 */
#include "fs/inet.h"
#include "fs/proc/internal.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

/* Linux pads tcp's lines to 149 characters (TMPSZ - 1) and udp's to 127. */
#define TCP4_LINE 149
#define UDP4_LINE 127

struct net_show {
	struct procbuf *b;
	int type;
	int line; /* the listing's line number, from 0 */
};

/* Four address bytes as Linux prints them: read as one host-order word. */
static u32
word_at(const u8 *p)
{
	u32 w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* An address and port in hex, into buf: "0100007F:1F90" or the 32 digits of IPv6. */
static void
format_address(char *buf, size_t size, const struct unix_address *a)
{
	const u8 *p = a->sin6.sin6_addr;
	u16 port = __builtin_bswap16(a->sin.sin_port);

	if (a->sun.sun_family == AF_INET6)
		ksnprintf(buf, size, "%08X%08X%08X%08X:%04X", word_at(p), word_at(p + 4),
			  word_at(p + 8), word_at(p + 12), port);
	else
		ksnprintf(buf, size, "%08X:%04X", a->sin.sin_addr, port);
}

/* One socket's line: its addresses, state and queues, then the fields rewind keeps at zero. */
static void
show_sock(void *arg, const struct inet_sock_info *info)
{
	struct net_show *s = arg;
	bool tcp = s->type == SOCK_STREAM;
	char local[48], remote[48], line[200];

	format_address(local, sizeof(local), &info->local);
	format_address(remote, sizeof(remote), &info->remote);
	ksnprintf(line, sizeof(line),
		  "%*d: %s %s %02X %08llX:%08llX 00:00000000 00000000 %5u %8d %llu %s", tcp ? 4 : 5,
		  s->line++, local, remote, info->state, (unsigned long long)info->tx_queue,
		  (unsigned long long)info->rx_queue, info->uid, 0, (unsigned long long)info->ino,
		  tcp ? "1 0000000000000000 20 4 30 10 -1" : "2 0000000000000000 0");
	if (info->local.sun.sun_family == AF_INET6)
		procbuf_printf(s->b, "%s\n", line); /* Linux pads only IPv4's lines */
	else
		procbuf_printf(s->b, "%-*s\n", tcp ? TCP4_LINE : UDP4_LINE, line);
}

static void
show_header(struct procbuf *b, int family, int type)
{
	const char *tail = type == SOCK_STREAM ? "" : " ref pointer drops";

	if (family == AF_INET6) {
		procbuf_printf(
			b,
			"  sl  local_address                         remote_address          "
			"              st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout "
			"inode%s\n",
			tail);
		return;
	}
	char head[160];
	ksnprintf(head, sizeof(head),
		  "%s  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   "
		  "uid  timeout inode%s",
		  type == SOCK_STREAM ? "" : " ", tail);
	procbuf_printf(b, "%-*s\n", type == SOCK_STREAM ? TCP4_LINE : UDP4_LINE, head);
}

static int
show_net(struct procbuf *b, int family, int type)
{
	struct net_show s = { b, type, 0 };

	show_header(b, family, type);
	inet_sockets_each(family, type, show_sock, &s);
	return 0;
}

static int
show_tcp(struct procbuf *b, union proc_arg arg)
{
	return show_net(b, AF_INET, SOCK_STREAM);
}

static int
show_tcp6(struct procbuf *b, union proc_arg arg)
{
	return show_net(b, AF_INET6, SOCK_STREAM);
}

static int
show_udp(struct procbuf *b, union proc_arg arg)
{
	return show_net(b, AF_INET, SOCK_DGRAM);
}

static int
show_udp6(struct procbuf *b, union proc_arg arg)
{
	return show_net(b, AF_INET6, SOCK_DGRAM);
}

static const struct proc_entry net_entries[] = {
	{ .name = "tcp", .mode = S_IFREG | 0444, .show = show_tcp },
	{ .name = "tcp6", .mode = S_IFREG | 0444, .show = show_tcp6 },
	{ .name = "udp", .mode = S_IFREG | 0444, .show = show_udp },
	{ .name = "udp6", .mode = S_IFREG | 0444, .show = show_udp6 },
};

const struct proc_dir proc_net_dir = {
	.entries = net_entries,
	.nentries = ARRAY_SIZE(net_entries),
};
