#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <termios.h>
#include <unistd.h>

#include "serial_open.h"

struct rate {
    unsigned bps;
    speed_t code;
};

static const struct rate rates[] = {
    {   9600U, B9600   },
    {  19200U, B19200  },
    {  38400U, B38400  },
    {  57600U, B57600  },
    { 115200U, B115200 },
    { 230400U, B230400 },
};

#define READ_TIMEOUT_DECISEC 10   /* VTIME unit is 1/10 s -> 1 second */

int serial_open(const char *path, unsigned baud)
{
    const struct rate *r = NULL;
    struct termios t;
    size_t i;
    int fd, flags, err;

    for (i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        if (rates[i].bps == baud) {
            r = &rates[i];
            break;
        }
    }
    if (r == NULL) {
        errno = EINVAL;
        return -1;
    }

    /* Open non-blocking so a port without carrier cannot hang us here;
     * blocking mode is restored below once CLOCAL is set. */
    fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd == -1)
        return -1;

    if (tcgetattr(fd, &t) == -1)
        goto fail;

    cfmakeraw(&t);            /* clears most of the raw-mode flags, sets CS8 */
    t.c_iflag &= ~(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL |
                   INPCK | IXON | IXOFF | IXANY);
    t.c_oflag &= ~OPOST;
    t.c_lflag &= ~(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.c_cflag &= ~(CSIZE | PARENB | CSTOPB | CRTSCTS);
    t.c_cflag |= CS8 | CREAD | CLOCAL;
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = READ_TIMEOUT_DECISEC;

    if (cfsetspeed(&t, r->code) == -1)
        goto fail;

    if (tcsetattr(fd, TCSANOW, &t) == -1)
        goto fail;

    if (tcflush(fd, TCIFLUSH) == -1)
        goto fail;

    flags = fcntl(fd, F_GETFL);
    if (flags == -1)
        goto fail;
    if (fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1)
        goto fail;

    return fd;

fail:
    err = errno;
    (void)close(fd);
    errno = err;
    return -1;
}
