/* defect: the temporary is opened with O_CREAT but without O_TRUNC, so when a
 *         longer stale <path>.tmp exists its tail survives after the new data.
 * breaks: "a stale `<path>.tmp` left by an earlier power cut is replaced, its old contents never carried over."
 * must_fail: scenario_stale_temporary_replaced
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_save.h"

static void cleanup_tmp(const char *tmp)
{
    int e = errno;
    unlink(tmp);
    errno = e;
}

static int sync_dir(const char *path)
{
    const char *sep = strrchr(path, '/');
    char *dir;
    int dfd, rc, e;

    if (sep == NULL)
        dir = strdup(".");
    else
        dir = strndup(path, sep == path ? 1 : (size_t)(sep - path));
    if (dir == NULL)
        return -1;

    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    e = errno;
    free(dir);
    if (dfd < 0) {
        errno = e;
        return -1;
    }
    rc = fsync(dfd);
    e = errno;
    close(dfd);
    errno = e;
    return rc;
}

int config_save(const char *path, const void *data, size_t len)
{
    size_t plen = strlen(path);
    const char *p = data;
    char *tmp;
    int fd, e;

    tmp = malloc(plen + sizeof ".tmp");
    if (tmp == NULL)
        return -1;
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", sizeof ".tmp");

    fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        e = errno;
        free(tmp);
        errno = e;
        return -1;
    }

    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            goto fail_fd;
        }
        p += n;
        len -= (size_t)n;
    }

    if (fsync(fd) < 0)
        goto fail_fd;
    if (close(fd) < 0)
        goto fail;
    if (rename(tmp, path) < 0)
        goto fail;

    free(tmp);
    return sync_dir(path);

fail_fd:
    e = errno;
    close(fd);
    errno = e;
fail:
    cleanup_tmp(tmp);
    e = errno;
    free(tmp);
    errno = e;
    return -1;
}
