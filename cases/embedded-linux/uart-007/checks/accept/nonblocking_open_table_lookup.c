/* Accepted variant: table lookup of the rate, opens non-blocking (so that a
 * port without carrier cannot hang the open) and switches back to blocking,
 * cfmakeraw() plus the extra bits, one cleanup block with saved errno. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <termios.h>
#include <unistd.h>

#include "serial_open.h"

static const struct {
	unsigned rate;
	speed_t code;
} rates[] = {
	{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 },
	{ 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 },
};

int serial_open(const char *path, unsigned baud)
{
	const speed_t *code = NULL;
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (rates[i].rate == baud)
			code = &rates[i].code;
	if (code == NULL) {
		errno = EINVAL;
		return -1;
	}

	int port = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (port == -1)
		return -1;

	struct termios cfg;
	int flags;
	if (tcgetattr(port, &cfg) != 0)
		goto bail;
	cfmakeraw(&cfg);
	cfg.c_iflag &= ~(INPCK | IXOFF | IXANY);
	cfg.c_cflag &= ~(CSTOPB | CRTSCTS);
	cfg.c_cflag |= CREAD | CLOCAL;
	cfg.c_cc[VTIME] = 10;
	cfg.c_cc[VMIN] = 0;
	if (cfsetspeed(&cfg, *code) != 0)
		goto bail;
	if (tcsetattr(port, TCSANOW, &cfg) != 0)
		goto bail;
	if (tcflush(port, TCIFLUSH) != 0)
		goto bail;
	flags = fcntl(port, F_GETFL);
	if (flags == -1 || fcntl(port, F_SETFL, flags & ~O_NONBLOCK) == -1)
		goto bail;
	return port;

bail:;
	int saved = errno;
	(void)close(port);
	errno = saved;
	return -1;
}
