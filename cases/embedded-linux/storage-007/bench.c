/* Test bench (not part of the answer): owns main(); prepares the files of
 * one situation, calls the answer's config_save() and reports the calls it
 * made (write, fsync, fdatasync, rename* are wrapped at link time), the
 * result, the files left behind and the descriptors left open.
 *
 *   app SITUATION     (see the table in main)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_save.h"

ssize_t __real_write(int, const void *, size_t);
int __real_fsync(int);
int __real_fdatasync(int);
int __real_rename(const char *, const char *);
int __real_renameat(int, const char *, int, const char *);
int __real_renameat2(int, const char *, int, const char *, unsigned);

static const char *g_path, *g_dir;
static char g_tmp[512];
static int short_writes;	/* cap each write at 512 bytes, first one EINTR */
static int fail_file_sync;	/* the temporary's flush fails with EIO */
static int fail_dir_sync;	/* the directory's flush fails with EIO */
static int write_calls;

static const char *errname(int e)
{
	static char buf[32];
	switch (e) {
	case EIO: return "EIO";
	case EFBIG: return "EFBIG";
	case EACCES: return "EACCES";
	case EISDIR: return "EISDIR";
	case ENOENT: return "ENOENT";
	case ENOTDIR: return "ENOTDIR";
	case EINTR: return "EINTR";
	case 0: return "0";
	}
	snprintf(buf, sizeof(buf), "%d", e);
	return buf;
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	write_calls++;
	if (short_writes) {
		if (write_calls == 1) {
			errno = EINTR;
			return -1;
		}
		if (n > 512)
			n = 512;
	}
	return __real_write(fd, buf, n);
}

static int same_file(const struct stat *a, const char *name)
{
	struct stat b;
	return stat(name, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

static int on_flush(int fd, const char *call)
{
	struct stat sb;
	if (fstat(fd, &sb) < 0) {
		printf("event %s bad descriptor\n", call);
		return 0;
	}
	if (S_ISDIR(sb.st_mode)) {
		printf("event flush directory %s\n", same_file(&sb, g_dir) ? g_dir : "(another one)");
		if (fail_dir_sync) {
			errno = EIO;
			return -1;
		}
	} else if (same_file(&sb, g_tmp)) {
		printf("event flush temporary (%lld bytes)\n", (long long)sb.st_size);
		if (fail_file_sync) {
			errno = EIO;
			return -1;
		}
	} else {
		printf("event flush another file (%lld bytes)\n", (long long)sb.st_size);
	}
	return 0;
}

int __wrap_fsync(int fd)
{
	return on_flush(fd, "fsync") < 0 ? -1 : __real_fsync(fd);
}

int __wrap_fdatasync(int fd)
{
	return on_flush(fd, "fdatasync") < 0 ? -1 : __real_fdatasync(fd);
}

static void on_rename(void)
{
	struct stat sb;
	if (stat(g_tmp, &sb) == 0)
		printf("event rename (temporary %lld bytes)\n", (long long)sb.st_size);
	else
		printf("event rename\n");
}

int __wrap_rename(const char *a, const char *b)
{
	on_rename();
	return __real_rename(a, b);
}

int __wrap_renameat(int d1, const char *a, int d2, const char *b)
{
	on_rename();
	return __real_renameat(d1, a, d2, b);
}

int __wrap_renameat2(int d1, const char *a, int d2, const char *b, unsigned f)
{
	on_rename();
	return __real_renameat2(d1, a, d2, b, f);
}

static int count_fds(void)
{
	int n = 0;
	for (int i = 0; i < 1024; i++)
		if (fcntl(i, F_GETFD) >= 0)
			n++;
	return n;
}

static unsigned char old_data[] = "# autopilot network settings v1\nnmea_port=10110\n";
static unsigned char new_data[8192];

static void put(const char *name, const void *p, size_t n, mode_t mode)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || __real_write(fd, p, n) != (ssize_t)n) {
		printf("bench: cannot create %s\n", name);
		exit(125);
	}
	fchmod(fd, mode);
	close(fd);
}

static void describe(const char *name, size_t new_len)
{
	struct stat sb;
	if (lstat(name, &sb) < 0)
		return;
	if (S_ISDIR(sb.st_mode)) {
		printf("# %s: directory\n", name);
		return;
	}
	unsigned char *buf = malloc((size_t)sb.st_size + 1);
	int fd = open(name, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, (size_t)sb.st_size) : -1;
	if (fd >= 0)
		close(fd);
	const char *what = "other contents";
	if (n == (ssize_t)new_len && memcmp(buf, new_data, new_len) == 0)
		what = "new contents";
	else if (n == (ssize_t)sizeof(old_data) - 1 && memcmp(buf, old_data, sizeof(old_data) - 1) == 0)
		what = "old contents";
	printf("# %s: %s, %lld bytes, mode %04o\n", name, what, (long long)sb.st_size,
	       (unsigned)(sb.st_mode & 07777));
	free(buf);
}

/* Every entry under dir, sorted, as "# files: a b c". */
static int names_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list(const char *dir, char **names, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL && *n < 64) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char p[600];
		if (!strcmp(dir, "."))
			snprintf(p, sizeof(p), "%s", e->d_name);
		else
			snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		names[(*n)++] = strdup(p);
		struct stat sb;
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			list(p, names, n);
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2)
		return 2;
	const char *s = argv[1];
	umask(022);
	for (size_t i = 0; i < sizeof(new_data); i++)
		new_data[i] = (unsigned char)(i * 7 + 3);	/* zeros included */
	size_t len = 3000;
	int have_old = 1;

	/* Situation table. */
	g_path = "conf/net.conf";
	g_dir = "conf";
	if (!strcmp(s, "plain")) {
		g_path = "net.conf";
		g_dir = ".";
	} else if (!strcmp(s, "fresh")) {
		have_old = 0;
	} else if (!strcmp(s, "empty")) {
		len = 0;
	} else if (!strcmp(s, "short")) {
		len = 5000;
		short_writes = 1;
	} else if (!strcmp(s, "stale") || !strcmp(s, "nested") || !strcmp(s, "efbig") ||
		   !strcmp(s, "readonly") || !strcmp(s, "targetdir") || !strcmp(s, "tmpsyncfail") ||
		   !strcmp(s, "dirsyncfail") || !strcmp(s, "nodir")) {
	} else {
		return 2;
	}
	if (!strcmp(s, "nodir")) {
		g_path = "missing/net.conf";
		g_dir = "missing";
		have_old = 0;
	}
	snprintf(g_tmp, sizeof(g_tmp), "%s.tmp", g_path);

	if (strcmp(g_dir, ".") && strcmp(s, "nodir"))
		mkdir(g_dir, 0755);
	if (!strcmp(s, "targetdir")) {
		mkdir(g_path, 0755);
		char keep[600];
		snprintf(keep, sizeof(keep), "%s/keep", g_path);
		put(keep, old_data, sizeof(old_data) - 1, 0644);
		have_old = 0;
	}
	if (have_old)
		put(g_path, old_data, sizeof(old_data) - 1, 0644);
	if (!strcmp(s, "stale")) {
		static unsigned char junk[7000];
		memset(junk, 'S', sizeof(junk));
		put(g_tmp, junk, sizeof(junk), 0644);
	}
	if (!strcmp(s, "readonly"))
		chmod(g_dir, 0555);
	if (!strcmp(s, "tmpsyncfail"))
		fail_file_sync = 1;
	if (!strcmp(s, "dirsyncfail"))
		fail_dir_sync = 1;
	if (!strcmp(s, "efbig")) {
		len = 6000;
		signal(SIGXFSZ, SIG_IGN);
		struct rlimit rl;
		getrlimit(RLIMIT_FSIZE, &rl);
		rl.rlim_cur = 4096;
		setrlimit(RLIMIT_FSIZE, &rl);
	}

	int before = count_fds();
	errno = 0;
	int rc = config_save(g_path, new_data, len);
	int e = errno;
	int left = count_fds() - before;
	if (rc == 0)
		printf("config_save = 0\n");
	else
		printf("config_save = %d errno %s\n", rc, errname(e));
	printf("descriptors left open %d\n", left);

	if (!strcmp(s, "readonly"))
		chmod(g_dir, 0755);
	char *names[64];
	int n = 0;
	list(".", names, &n);
	qsort(names, (size_t)n, sizeof(names[0]), names_cmp);
	for (int i = 0; i < n; i++)
		describe(names[i], len);
	printf("# files:");
	for (int i = 0; i < n; i++)
		printf(" %s", names[i]);
	printf("\n");
	return 0;
}
