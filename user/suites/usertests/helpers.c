/*
 * helpers.c - the helpers the files of usertests share (see usertests.h).
 */
#include "usertests.h"

#include <fcntl.h>
#include <unistd.h>

const unsigned long bad_addrs[NBAD] = {
	1,
	0x0000800000000000UL,
	0xffff800000000000UL,
	0xffffffff80000000UL,
};

int
create_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = EXPECT_OK(open(path, O_RDWR | O_CREAT | O_TRUNC, mode));

	if (len)
		CHECK(write(fd, data, len) == (ssize_t)len);
	return fd;
}

void
make_file(const char *path, const void *data, size_t len)
{
	close(create_file(path, data, len, 0644));
}

void
fill_pattern(unsigned char *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + seed + (i >> 12));
}

bool
has_pattern(const unsigned char *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != (unsigned char)(i * 7 + seed + (i >> 12)))
			return false;
	return true;
}

bool
all_bytes(const void *p, size_t len, unsigned char c)
{
	for (size_t i = 0; i < len; i++)
		if (((const unsigned char *)p)[i] != c)
			return false;
	return true;
}

long long
tv_us(struct timeval tv)
{
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}
