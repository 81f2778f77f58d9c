/* config_save(): crash-safe replacement of a configuration file
 * (temporary file, fsync, rename, directory fsync). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config_save.h"

static int write_all(int fd, const unsigned char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Flushes the directory holding path ("." when it has none). */
static int sync_parent(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (slash == NULL) {
		strcpy(dir, ".");
	} else if (slash == path) {
		strcpy(dir, "/");
	} else {
		size_t n = (size_t)(slash - path);
		if (n >= sizeof(dir)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(dir, path, n);
		dir[n] = '\0';
	}

	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	int rc = fsync(dfd);
	int err = errno;
	close(dfd);
	errno = err;
	return rc;
}

int config_save(const char *path, const void *data, size_t len)
{
	char tmp[PATH_MAX];
	int fd, err;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;

	if (write_all(fd, data, len) < 0)
		goto fail_close;
	if (fsync(fd) < 0)
		goto fail_close;
	if (close(fd) < 0)
		goto fail_unlink;
	if (rename(tmp, path) < 0)
		goto fail_unlink;
	return sync_parent(path);

fail_close:
	err = errno;
	close(fd);
	errno = err;
fail_unlink:
	err = errno;
	unlink(tmp);
	errno = err;
	return -1;
}
