/* Test bench (not part of the answer): owns main(), creates a
 * pseudo-terminal pair, leaves hostile settings on the slave side (7E2,
 * flow control, canonical, echo, 1200 baud, VMIN 4), calls the answer's
 * serial_open() and reports what it finds.
 *
 *   app ok BAUD          settings, descriptor flags, descriptors opened
 *   app stale            input pending before the call is discarded
 *   app io               bytes pass unchanged both ways, no echo
 *   app ctty             caller is a session leader without a terminal
 *   app baud BAUD        unsupported rate on the pty
 *   app baud-missing B   unsupported rate on a missing path
 *   app path missing|file|devnull|dir   error paths
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "serial_open.h"

static int master_fd = -1, bench_slave = -1;
static char slave_path[128];

static void die(const char *what)
{
	printf("bench: %s: %s\n", what, strerror(errno));
	fflush(stdout);
	exit(125);
}

static int count_fds(void)
{
	int n = 0;
	for (int i = 0; i < 1024; i++)
		if (fcntl(i, F_GETFD) >= 0)
			n++;
	return n;
}

static const char *errname(int e)
{
	static char buf[32];
	switch (e) {
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case ENOTTY: return "ENOTTY";
	case EISDIR: return "EISDIR";
	case EACCES: return "EACCES";
	case 0: return "0";
	}
	snprintf(buf, sizeof(buf), "%d", e);
	return buf;
}

static unsigned speed_num(speed_t s)
{
	switch (s) {
	case B0: return 0;
	case B1200: return 1200;
	case B2400: return 2400;
	case B4800: return 4800;
	case B9600: return 9600;
	case B19200: return 19200;
	case B38400: return 38400;
	case B57600: return 57600;
	case B115200: return 115200;
	case B230400: return 230400;
	case B460800: return 460800;
	}
	return 1;
}

static void make_pty(void)
{
	master_fd = posix_openpt(O_RDWR | O_NOCTTY);
	if (master_fd < 0)
		die("posix_openpt");
	if (grantpt(master_fd) < 0 || unlockpt(master_fd) < 0)
		die("unlockpt");
	if (ptsname_r(master_fd, slave_path, sizeof(slave_path)) != 0)
		die("ptsname");
	bench_slave = open(slave_path, O_RDWR | O_NOCTTY);
	if (bench_slave < 0)
		die("open slave");
	struct termios t;
	if (tcgetattr(bench_slave, &t) < 0)
		die("tcgetattr");
	t.c_iflag |= IGNBRK | BRKINT | PARMRK | INPCK | ISTRIP | INLCR | IGNCR |
		     ICRNL | IXON | IXOFF | IXANY;
	t.c_oflag |= OPOST | ONLCR;
	t.c_lflag |= ICANON | ECHO | ECHONL | ISIG | IEXTEN;
	t.c_cflag &= ~(CSIZE | CREAD | CLOCAL);
	t.c_cflag |= CS7 | PARENB | PARODD | CSTOPB | CRTSCTS;
	t.c_cc[VMIN] = 4;
	t.c_cc[VTIME] = 0;
	cfsetispeed(&t, B1200);
	cfsetospeed(&t, B1200);
	if (tcsetattr(bench_slave, TCSANOW, &t) < 0)
		die("tcsetattr");
}

static int call(const char *path, unsigned baud, int *new_fds)
{
	int before = count_fds();
	errno = 0;
	int fd = serial_open(path, baud);
	int e = errno;
	*new_fds = count_fds() - before;
	if (fd >= 0)
		printf("serial_open: ok\n");
	else
		printf("serial_open: %d errno %s\n", fd, errname(e));
	return fd;
}

#define F(flags, bit) (((flags) & (bit)) ? 1 : 0)

static void report_settings(int fd)
{
	struct termios t;
	if (tcgetattr(fd, &t) < 0) {
		printf("tcgetattr: %s\n", strerror(errno));
		return;
	}
	printf("speed in %u out %u\n", speed_num(cfgetispeed(&t)), speed_num(cfgetospeed(&t)));
	const char *cs = (t.c_cflag & CSIZE) == CS8 ? "CS8" : (t.c_cflag & CSIZE) == CS7 ? "CS7" :
			 (t.c_cflag & CSIZE) == CS6 ? "CS6" : "CS5";
	printf("frame %s PARENB=%d CSTOPB=%d\n", cs, F(t.c_cflag, PARENB), F(t.c_cflag, CSTOPB));
	printf("control CREAD=%d CLOCAL=%d\n", F(t.c_cflag, CREAD), F(t.c_cflag, CLOCAL));
	printf("flow CRTSCTS=%d IXON=%d IXOFF=%d IXANY=%d\n", F(t.c_cflag, CRTSCTS),
	       F(t.c_iflag, IXON), F(t.c_iflag, IXOFF), F(t.c_iflag, IXANY));
	printf("input IGNBRK=%d BRKINT=%d PARMRK=%d INPCK=%d ISTRIP=%d INLCR=%d IGNCR=%d ICRNL=%d\n",
	       F(t.c_iflag, IGNBRK), F(t.c_iflag, BRKINT), F(t.c_iflag, PARMRK), F(t.c_iflag, INPCK),
	       F(t.c_iflag, ISTRIP), F(t.c_iflag, INLCR), F(t.c_iflag, IGNCR), F(t.c_iflag, ICRNL));
	printf("local ICANON=%d ECHO=%d ECHONL=%d ISIG=%d IEXTEN=%d\n", F(t.c_lflag, ICANON),
	       F(t.c_lflag, ECHO), F(t.c_lflag, ECHONL), F(t.c_lflag, ISIG), F(t.c_lflag, IEXTEN));
	printf("output OPOST=%d\n", F(t.c_oflag, OPOST));
	printf("timing VMIN=%d VTIME=%d\n", t.c_cc[VMIN], t.c_cc[VTIME]);
	int fl = fcntl(fd, F_GETFL), fdf = fcntl(fd, F_GETFD);
	printf("descriptor %s O_NONBLOCK=%d FD_CLOEXEC=%d\n",
	       (fl & O_ACCMODE) == O_RDWR ? "O_RDWR" : (fl & O_ACCMODE) == O_RDONLY ? "O_RDONLY" : "O_WRONLY",
	       F(fl, O_NONBLOCK), F(fdf, FD_CLOEXEC));
}

/* Reads up to n bytes from fd within ms milliseconds (poll, then read). */
static int collect(int fd, unsigned char *buf, int n, int ms)
{
	int got = 0;
	while (got < n) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, ms);
		if (r <= 0 || !(p.revents & POLLIN))
			break;
		ssize_t k = read(fd, buf + got, n - got);
		if (k <= 0)
			break;
		got += (int)k;
	}
	return got;
}

static void hex(const char *tag, const unsigned char *b, int n)
{
	printf("%s", tag);
	for (int i = 0; i < n; i++)
		printf(" %02x", b[i]);
	printf("%s\n", n ? "" : " (none)");
}

int main(int argc, char **argv)
{
	int nfd, fd;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		return 2;
	const char *mode = argv[1];

	if (!strcmp(mode, "ok") && argc == 3) {
		make_pty();
		fd = call(slave_path, (unsigned)strtoul(argv[2], NULL, 10), &nfd);
		printf("descriptors opened %d\n", nfd);
		if (fd >= 0)
			report_settings(fd);
		return 0;
	}
	if (!strcmp(mode, "stale")) {
		make_pty();
		/* VEOF ends the canonical line (NL is dropped: INLCR + IGNCR). */
		if (write(master_fd, "stale\004", 6) != 6)
			die("write master");
		struct pollfd p = { .fd = bench_slave, .events = POLLIN };
		if (poll(&p, 1, 3000) != 1)
			die("stale input not visible");
		fd = call(slave_path, 115200, &nfd);
		if (fd < 0)
			return 0;
		usleep(100000);
		int pending = -1;
		if (ioctl(fd, FIONREAD, &pending) < 0)
			die("FIONREAD");
		printf("pending input bytes %d\n", pending);
		return 0;
	}
	if (!strcmp(mode, "io")) {
		make_pty();
		fd = call(slave_path, 115200, &nfd);
		if (fd < 0)
			return 0;
		static const unsigned char in[] = { 'a', '\r', 0x03, 0x11, 0x13, 0x7f, 0xe9, 'b', '\n' };
		unsigned char buf[64];
		if (write(master_fd, in, sizeof(in)) != (ssize_t)sizeof(in))
			die("write master");
		hex("received", buf, collect(fd, buf, sizeof(in), 1000));
		if (write(fd, "x\n\t\xb0", 4) != 4)
			die("write answer fd");
		usleep(50000);
		/* Everything the master sees: echoes would come first. */
		int fl = fcntl(master_fd, F_GETFL);
		fcntl(master_fd, F_SETFL, fl | O_NONBLOCK);
		hex("sent", buf, collect(master_fd, buf, sizeof(buf), 300));
		return 0;
	}
	if (!strcmp(mode, "ctty")) {
		make_pty();
		pid_t pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			if (setsid() < 0)
				die("setsid");
			fd = call(slave_path, 57600, &nfd);
			if (fd >= 0)
				printf("controlling terminal: %s\n",
				       tcgetsid(fd) >= 0 ? "acquired" : "none");
			fflush(stdout);
			_exit(0);
		}
		int st;
		waitpid(pid, &st, 0);
		return 0;
	}
	if (!strcmp(mode, "baud") && argc == 3) {
		make_pty();
		fd = call(slave_path, (unsigned)strtoul(argv[2], NULL, 10), &nfd);
		printf("descriptors opened %d\n", nfd);
		return 0;
	}
	if (!strcmp(mode, "baud-missing") && argc == 3) {
		fd = call("ttyGPS9", (unsigned)strtoul(argv[2], NULL, 10), &nfd);
		printf("descriptors opened %d\n", nfd);
		return 0;
	}
	if (!strcmp(mode, "path") && argc == 3) {
		const char *p = argv[2];
		if (!strcmp(p, "missing"))
			p = "ttyGPS9";
		else if (!strcmp(p, "file")) {
			int f = open("plotter.cfg", O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (f < 0 || write(f, "baud=115200\n", 12) != 12)
				die("plotter.cfg");
			close(f);
			p = "plotter.cfg";
		} else if (!strcmp(p, "devnull"))
			p = "/dev/null";
		else if (!strcmp(p, "dir"))
			p = ".";
		fd = call(p, 115200, &nfd);
		printf("descriptors opened %d\n", nfd);
		return 0;
	}
	return 2;
}
