#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_save.h"

/* Write all of buf, riding over short writes and EINTR. */
static bool write_fully(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n == -1) {
            if (errno == EINTR)
                continue;
            return false;
        }
        buf += n;
        len -= (size_t)n;
    }
    return true;
}

/* Open the directory that contains `path` and flush it. */
static int sync_parent_dir(const char *path)
{
    const char *sep = strrchr(path, '/');
    char *dir;
    int dfd, rc, saved;

    if (sep == NULL) {
        dir = strdup(".");
    } else {
        size_t n = (sep == path) ? 1 : (size_t)(sep - path);
        dir = strndup(path, n);
    }
    if (dir == NULL)
        return -1;

    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    saved = errno;
    free(dir);
    if (dfd == -1) {
        errno = saved;
        return -1;
    }

    rc = fsync(dfd);
    saved = errno;
    if (close(dfd) == -1 && rc == 0)
        return -1;
    if (rc == -1) {
        errno = saved;
        return -1;
    }
    return 0;
}

/* Remove the temporary file, keeping the caller's errno. */
static void drop_tmp(const char *tmp)
{
    int saved = errno;
    (void)unlink(tmp);
    errno = saved;
}

int config_save(const char *path, const void *data, size_t len)
{
    size_t plen = strlen(path);
    char *tmp;
    int fd, saved;

    tmp = malloc(plen + 5);
    if (tmp == NULL)
        return -1;
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", 5);

    /* Get rid of any stale temporary, then create a fresh one so its mode
     * is always 0644 & ~umask and nothing of the old one survives. */
    if (unlink(tmp) == -1 && errno != ENOENT) {
        saved = errno;
        free(tmp);
        errno = saved;
        return -1;
    }
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd == -1) {
        saved = errno;
        free(tmp);
        errno = saved;
        return -1;
    }

    if (!write_fully(fd, data, len) || fdatasync(fd) == -1) {
        saved = errno;
        (void)close(fd);
        errno = saved;
        goto undo;
    }
    if (close(fd) == -1)
        goto undo;
    if (rename(tmp, path) == -1)
        goto undo;

    free(tmp);
    return sync_parent_dir(path);

undo:
    drop_tmp(tmp);
    saved = errno;
    free(tmp);
    errno = saved;
    return -1;
}
