/* defect: the port is opened with O_NONBLOCK (to avoid hanging on carrier
 *         detect) and the flag is never cleared, so the descriptor is returned
 *         in non-blocking mode.
 * breaks: "The returned descriptor is in blocking mode (`O_NONBLOCK` not set)."
 * must_fail: scenario_descriptor_flags
 */
#include <errno.h>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include "serial_open.h"

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

int serial_open(const char *path, unsigned baud)
{
    struct termios tio;
    speed_t speed;
    int fd, saved;

    speed = baud_to_speed(baud);
    if (speed == 0) {
        errno = EINVAL;
        return -1;
    }

    /* don't block waiting for DCD on real modem ports */
    fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;

    if (tcgetattr(fd, &tio) < 0)
        goto fail;

    cfmakeraw(&tio);
    tio.c_iflag &= ~(INPCK | IXOFF | IXANY);
    tio.c_cflag &= ~(CSTOPB | CRTSCTS);
    tio.c_cflag |= CREAD | CLOCAL;
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
    saved = errno;
    close(fd);
    errno = saved;
    return -1;
}
