/* config_save.c - crash-safe replacement of a configuration file:
 * write <path>.tmp, fsync, close, rename over <path>, fsync the directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_save.h"

#define PATH_BUF   1024          /* path is shorter than this */
#define TMP_SUFFIX ".tmp"

int config_save(const char *path, const void *data, size_t len)
{
    char tmp[PATH_BUF + sizeof TMP_SUFFIX];
    char dir[PATH_BUF];
    const unsigned char *p = data;
    const char *slash;
    size_t done = 0;
    int fd, dfd, err;

    if (snprintf(tmp, sizeof tmp, "%s%s", path, TMP_SUFFIX) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }

    /* O_TRUNC: a stale temporary from an earlier power cut is emptied */
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;

    while (done < len) {
        ssize_t n = write(fd, p + done, len - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            goto fail_open;
        }
        done += (size_t)n;
    }

    if (fsync(fd) < 0)
        goto fail_open;

    if (close(fd) < 0)
        goto fail_closed;

    if (rename(tmp, path) < 0)
        goto fail_closed;

    /* make the rename itself durable: fsync the containing directory */
    slash = strrchr(path, '/');
    if (slash == NULL) {
        strcpy(dir, ".");
    } else if (slash == path) {
        strcpy(dir, "/");
    } else {
        size_t dlen = (size_t)(slash - path);
        memcpy(dir, path, dlen);
        dir[dlen] = '\0';
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
    if (close(dfd) < 0)
        return -1;

    return 0;

fail_open:
    err = errno;
    close(fd);
    unlink(tmp);
    errno = err;
    return -1;

fail_closed:
    err = errno;
    unlink(tmp);
    errno = err;
    return -1;
}
