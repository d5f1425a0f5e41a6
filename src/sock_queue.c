/*
 * sock_queue.c: what a connected socket holds now (host/sock.h): the
 * bytes in its queues, arrived but not read (SIOCINQ) and written but
 * not acknowledged (SIOCOUTQ), and the buffer sizes the kernel gives it.
 */
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>

#include "host/sock.h"

static uint64_t
sock_queued(int fd, unsigned long req)
{
	int n;

	if (ioctl(fd, req, &n) == -1 || n < 0)
		return 0;
	return (uint64_t)n;
}

uint64_t
sock_inq(int fd)
{
	return sock_queued(fd, SIOCINQ);
}

uint64_t
sock_outq(int fd)
{
	return sock_queued(fd, SIOCOUTQ);
}

static uint32_t
sock_buf_get(int fd, int opt)
{
	socklen_t len = sizeof(int);
	int v;

	return getsockopt(fd, SOL_SOCKET, opt, &v, &len) == 0 && v > 0 ?
	    (uint32_t)v : 0;
}

void
sock_bufs_now(int fd, struct gb_sockbuf *snd, struct gb_sockbuf *rcv)
{
	if ((snd->final = sock_buf_get(fd, SO_SNDBUF)) > snd->peak)
		snd->peak = snd->final;
	if ((rcv->final = sock_buf_get(fd, SO_RCVBUF)) > rcv->peak)
		rcv->peak = rcv->final;
}
