/* defect: when rename() fails the function returns -1 but leaves the fully
 *         written <path>.tmp behind instead of removing it.
 * breaks: "On a failure up to and including the rename (creating, writing, flushing or closing the temporary file, or the
 *   rename), remove the temporary file, leave `path` exactly as it was, and
 *   return -1 with errno set by the call that failed."
 * must_fail: scenario_target_is_directory
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config_save.h"

int config_save(const char *path, const void *data, size_t len)
{
    char tmp[1024 + 5];
    char dir[1024];
    const char *src = data;
    const char *slash;
    int fd, dfd, err;

    snprintf(tmp, sizeof tmp, "%s.tmp", path);

    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd == -1)
        return -1;

    while (len > 0) {
        ssize_t n = write(fd, src, len);
        if (n == -1) {
            if (errno == EINTR)
                continue;
            goto fail;
        }
        src += n;
        len -= (size_t)n;
    }

    if (fsync(fd) == -1)
        goto fail;

    if (close(fd) == -1) {
        err = errno;
        unlink(tmp);
        errno = err;
        return -1;
    }

    if (rename(tmp, path) == -1)
        return -1;

    slash = strrchr(path, '/');
    if (slash == NULL) {
        strcpy(dir, ".");
    } else {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        memcpy(dir, path, n);
        dir[n] = '\0';
    }

    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd == -1)
        return -1;
    if (fsync(dfd) == -1) {
        err = errno;
        close(dfd);
        errno = err;
        return -1;
    }
    if (close(dfd) == -1)
        return -1;
    return 0;

fail:
    err = errno;
    close(fd);
    unlink(tmp);
    errno = err;
    return -1;
}
