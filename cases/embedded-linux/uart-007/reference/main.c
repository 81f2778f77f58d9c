/* serial_open(): open a serial port raw 8N1, no flow control. */
#include <errno.h>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include "serial_open.h"

static int baud_constant(unsigned baud, speed_t *out)
{
	switch (baud) {
	case 9600:   *out = B9600;   return 0;
	case 19200:  *out = B19200;  return 0;
	case 38400:  *out = B38400;  return 0;
	case 57600:  *out = B57600;  return 0;
	case 115200: *out = B115200; return 0;
	case 230400: *out = B230400; return 0;
	default:     return -1;
	}
}

int serial_open(const char *path, unsigned baud)
{
	speed_t speed;
	struct termios tio;
	int fd, err;

	if (baud_constant(baud, &speed) < 0) {
		errno = EINVAL;
		return -1;
	}

	fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;

	if (tcgetattr(fd, &tio) < 0)
		goto fail;

	tio.c_iflag &= ~(IGNBRK | BRKINT | PARMRK | INPCK | ISTRIP | INLCR |
			 IGNCR | ICRNL | IXON | IXOFF | IXANY);
	tio.c_oflag &= ~OPOST;
	tio.c_lflag &= ~(ICANON | ECHO | ECHONL | ISIG | IEXTEN);
	tio.c_cflag &= ~(CSIZE | PARENB | CSTOPB | CRTSCTS);
	tio.c_cflag |= CS8 | CREAD | CLOCAL;
	tio.c_cc[VMIN] = 0;
	tio.c_cc[VTIME] = 10;

	if (cfsetispeed(&tio, speed) < 0 || cfsetospeed(&tio, speed) < 0)
		goto fail;
	if (tcsetattr(fd, TCSANOW, &tio) < 0)
		goto fail;
	if (tcflush(fd, TCIFLUSH) < 0)
		goto fail;
	return fd;

fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}
