/* defect: VTIME is set to 1 (read as "1 second") but VTIME counts tenths of a
 *         second, so read() gives up after 0.1 s instead of one second.
 * breaks: "`VMIN` 0 and `VTIME` 10 (a `read()` returns what has arrived, or 0
 *    after one second without data)."
 * must_fail: scenario_read_timing
 */
#include <errno.h>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include "serial_open.h"

#define READ_TIMEOUT 1   /* seconds */

static const struct {
    unsigned baud;
    speed_t speed;
} baud_table[] = {
    { 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 },
    { 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 },
};

int serial_open(const char *path, unsigned baud)
{
    struct termios tio;
    speed_t speed = B0;
    unsigned i;
    int fd, err;

    for (i = 0; i < sizeof baud_table / sizeof baud_table[0]; i++)
        if (baud_table[i].baud == baud)
            speed = baud_table[i].speed;
    if (speed == B0) {
        errno = EINVAL;
        return -1;
    }

    fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return -1;

    if (tcgetattr(fd, &tio) < 0)
        goto fail;

    cfsetispeed(&tio, speed);
    cfsetospeed(&tio, speed);

    tio.c_cflag &= ~(CSIZE | PARENB | CSTOPB | CRTSCTS);
    tio.c_cflag |= CS8 | CREAD | CLOCAL;
    tio.c_iflag &= ~(IGNBRK | BRKINT | PARMRK | INPCK | ISTRIP |
                     INLCR | IGNCR | ICRNL | IXON | IXOFF | IXANY);
    tio.c_lflag &= ~(ICANON | ECHO | ECHONL | ISIG | IEXTEN);
    tio.c_oflag &= ~OPOST;
    tio.c_cc[VMIN] = 0;
    tio.c_cc[VTIME] = READ_TIMEOUT;

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
