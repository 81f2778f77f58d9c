/* defect: the write loop resumes after a short write but treats a write()
 *         that fails with EINTR as a hard error and aborts the save.
 * breaks: "The autopilot's flash file system may accept fewer bytes than asked in
 *   one `write()`, and a `write()` may fail with `EINTR` when a signal
 *   arrives; neither is an error."
 * must_fail: scenario_short_and_interrupted_writes
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config_save.h"

static int write_all(int fd, const unsigned char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0)
            return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static int fsync_dir_of(const char *path)
{
    char dir[1024];
    const char *slash = strrchr(path, '/');
    int dfd, err;

    if (slash == NULL)
        strcpy(dir, ".");
    else if (slash == path)
        strcpy(dir, "/");
    else {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
    }

    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return -1;
    if (fsync(dfd) < 0) {
        err = errno;
        close(dfd);
        errno = err;
        return -1;
    }
    return close(dfd);
}

int config_save(const char *path, const void *data, size_t len)
{
    char tmp[1024 + 8];
    int fd, err;

    snprintf(tmp, sizeof tmp, "%s.tmp", path);

    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;

    if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
        err = errno;
        close(fd);
        unlink(tmp);
        errno = err;
        return -1;
    }
    if (close(fd) < 0 || rename(tmp, path) < 0) {
        err = errno;
        unlink(tmp);
        errno = err;
        return -1;
    }

    return fsync_dir_of(path);
}
