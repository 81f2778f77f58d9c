/* serial_open.c - open a serial port and configure it for raw 8N1 binary
 * traffic (console link of the GPS plotter). */
#include <errno.h>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include "serial_open.h"

/* Map a numeric baud rate to its termios speed constant.
 * Returns 0 when the rate is not one of the supported ones. */
static speed_t baud_to_speed(unsigned baud)
{
    switch (baud) {
    case 9600:   return B9600;
    case 19200:  return B19200;
    case 38400:  return B38400;
    case 57600:  return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    default:     return 0;
    }
}

/* Close fd without disturbing errno, then report failure. */
static int fail_close(int fd)
{
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

int serial_open(const char *path, unsigned baud)
{
    struct termios tio;
    speed_t speed;
    int fd;

    speed = baud_to_speed(baud);
    if (speed == 0) {
        errno = EINVAL;
        return -1;
    }

    fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return -1;

    if (tcgetattr(fd, &tio) < 0)
        return fail_close(fd);

    if (cfsetispeed(&tio, speed) < 0 || cfsetospeed(&tio, speed) < 0)
        return fail_close(fd);

    /* 8N1, receiver on, ignore modem control lines, no RTS/CTS */
    tio.c_cflag &= ~(CSIZE | PARENB | CSTOPB | CRTSCTS);
    tio.c_cflag |= CS8 | CREAD | CLOCAL;

    /* raw input, no software flow control */
    tio.c_iflag &= ~(IGNBRK | BRKINT | PARMRK | INPCK | ISTRIP |
                     INLCR | IGNCR | ICRNL | IXON | IXOFF | IXANY);

    /* no line discipline processing */
    tio.c_lflag &= ~(ICANON | ECHO | ECHONL | ISIG | IEXTEN);

    /* raw output */
    tio.c_oflag &= ~OPOST;

    /* read() returns what is there, or 0 after 1 s (VTIME in 0.1 s) */
    tio.c_cc[VMIN] = 0;
    tio.c_cc[VTIME] = 10;

    if (tcsetattr(fd, TCSANOW, &tio) < 0)
        return fail_close(fd);

    /* drop anything received before we took over the port */
    if (tcflush(fd, TCIFLUSH) < 0)
        return fail_close(fd);

    return fd;
}
