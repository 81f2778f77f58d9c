/* Accepted variant: opens the directory first and works relative to it
 * (openat, renameat), streams through stdio on a descriptor created 0644,
 * fsyncs the same directory descriptor after the rename. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_save.h"

struct target {
	int dir;		/* directory holding the file */
	char name[1024];	/* last component */
	char tmp[1040];		/* last component + ".tmp" */
};

static int target_init(struct target *t, const char *path)
{
	const char *base = strrchr(path, '/');
	char dirname[1024];

	if (base == NULL) {
		strcpy(dirname, ".");
		base = path;
	} else {
		size_t n = (size_t)(base - path);
		if (n == 0)
			n = 1;	/* "/file" lives in "/" */
		memcpy(dirname, path, n);
		dirname[n] = '\0';
		base++;
	}
	snprintf(t->name, sizeof(t->name), "%s", base);
	snprintf(t->tmp, sizeof(t->tmp), "%s.tmp", base);
	t->dir = open(dirname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return t->dir < 0 ? -1 : 0;
}

static int fill(struct target *t, const void *data, size_t len)
{
	int fd = openat(t->dir, t->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "wb");
	if (f == NULL) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	int bad = (len > 0 && fwrite(data, 1, len, f) != len) || fflush(f) != 0 ||
		  fsync(fileno(f)) != 0;
	int e = errno;
	if (fclose(f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	errno = e;
	return bad ? -1 : 0;
}

int config_save(const char *path, const void *data, size_t len)
{
	struct target t;
	int saved;

	if (target_init(&t, path) != 0)
		return -1;

	if (fill(&t, data, len) != 0 || renameat(t.dir, t.tmp, t.dir, t.name) != 0) {
		saved = errno;
		unlinkat(t.dir, t.tmp, 0);
		close(t.dir);
		errno = saved;
		return -1;
	}

	int rc = fsync(t.dir);
	saved = errno;
	close(t.dir);
	errno = saved;
	return rc == 0 ? 0 : -1;
}
