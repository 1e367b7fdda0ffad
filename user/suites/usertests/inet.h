/*
 * inet.h - usertests' helpers for TCP and UDP sockets on the loopback
 * (inet_stream.c, inet_dgram.c, inet_names.c): loopback addresses, a
 * socket's port, a listener and a connected pair. Every test binds port 0
 * and asks which port it got: other programs on the host hold ports too.
 */
#ifndef USERTESTS_INET_H
#define USERTESTS_INET_H

#include <netinet/in.h>
#include <sys/socket.h>

/* 127.0.0.1 (AF_INET) or ::1 (AF_INET6) at port, into a: its length. */
socklen_t loopback(int family, int port, struct sockaddr_storage *a);
/* The port fd is bound to. */
int port_of(int fd);
/* A socket of family and type bound to the loopback at an ephemeral port. */
int bound_socket(int family, int type);
/* A TCP listener on the loopback. */
int tcp_listener(int family);
/* A connected TCP pair: *client connected to the listener l, *server accepted there. */
void tcp_pair(int l, int *client, int *server);

#endif
