/* Test bench (not part of the answer): the sensor daemon. Listens on
 * 127.0.0.1 (ephemeral port), runs ../udpq PORT with the scenario's stdin,
 * answers its requests according to ./rules, then prints every request it
 * received, udpq's exit status, how many times each id was sent and
 * whether each retransmission waited long enough.
 *
 * rules (one per line):
 *   value NAME VAL     RSP with VAL for NAME (other names: ERR unknown)
 *   drop ID K          no answer to the first K transmissions of ID
 *   dup ID             answer ID twice
 *   stale ID           before answering ID: RSP ID-1 and RSP ID+1
 *   spoof ID           before answering ID: RSP ID from another port
 *   garbage ID         before answering ID: malformed datagrams
 *   delay ID MS        answer the 1st transmission of ID MS ms late,
 *                      never the later ones
 *   noise ID MS        from the 1st transmission of ID until a later id
 *                      arrives or udpq exits: every MS ms an ignored
 *                      datagram (stale or ahead id, malformed; every 3rd
 *                      tick also one from another port); the gaps between
 *                      ID's transmissions and the wait after its 4th must
 *                      then also not be much longer than stated
 *   args A B ...       run ../udpq A B ... instead of ../udpq PORT
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXID 64
#define NOISE_SLACK 250

static char vname[32][32], vval[32][64];
static int nval;
static int drop[MAXID], dup_[MAXID], stale[MAXID], spoof[MAXID], garbage[MAXID], delay_[MAXID], noise[MAXID];
static int sent[MAXID];
static long long tx_time[MAXID][8];
static char *args[8];
static int nargs = -1;

static int srv, spf;
static int cur_id;
static long long noise_next, noise_tick;
static long long rx_ms;
static struct sockaddr_in cli;

static struct { long long at; char msg[128]; } pend[16];
static int npend;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void send_to_cli(int fd, const char *m)
{
	sendto(fd, m, strlen(m), 0, (struct sockaddr *)&cli, sizeof cli);
}

static void answer(int id, const char *name, char *out, size_t n)
{
	int i;

	for (i = 0; i < nval; i++)
		if (strcmp(vname[i], name) == 0) {
			snprintf(out, n, "RSP %d %s", id, vval[i]);
			return;
		}
	snprintf(out, n, "ERR %d unknown", id);
}

static char logbuf[1 << 16];
static size_t loglen;

static void handle(const char *d)
{
	int id, k;
	char name[128], m[160];

	if (loglen < sizeof logbuf - 200)
		loglen += (size_t)snprintf(logbuf + loglen, sizeof logbuf - loglen, "got %s\n", d);
	if (sscanf(d, "REQ %d %127s", &id, name) != 2 || id < 1 || id >= MAXID)
		return;
	k = sent[id]++;
	if (k < 8)
		tx_time[id][k] = rx_ms;
	if (id > cur_id) {
		cur_id = id;
		noise_next = now_ms() + noise[id];
	}
	if (k < drop[id] || (k > 0 && delay_[id]))
		return;
	if (stale[id]) {
		snprintf(m, sizeof m, "RSP %d stale", id - 1);
		send_to_cli(srv, m);
		snprintf(m, sizeof m, "RSP %d ahead", id + 1);
		send_to_cli(srv, m);
	}
	if (spoof[id]) {
		snprintf(m, sizeof m, "RSP %d spoofed", id);
		send_to_cli(spf, m);
	}
	if (garbage[id]) {
		const char *g[] = { "RSP %d", "RSP %d ", "RSP  %d bad1", "RSP 0%d bad2", "rsp %d bad3",
				    "RSP %d bad 4", "RSP %d bad5\n", "RSP +%d bad6",
				    "RSP %d 0123456789abcdef0123456789abcdefX", "RSP%d bad7", "RSP %dbad8" };
		for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
			snprintf(m, sizeof m, g[i], id);
			send_to_cli(srv, m);
		}
	}
	answer(id, name, m, sizeof m);
	if (k == 0 && delay_[id] && npend < 16) {
		pend[npend].at = now_ms() + delay_[id];
		strcpy(pend[npend].msg, m);
		npend++;
		return;
	}
	send_to_cli(srv, m);
	if (dup_[id])
		send_to_cli(srv, m);
}

int main(void)
{
	struct sockaddr_in a;
	socklen_t al = sizeof a;
	char line[256], portstr[16];
	FILE *f = fopen("rules", "r");
	pid_t pid;
	int status = 0, exited = 0, i;
	long long t0;

	while (f && fgets(line, sizeof line, f)) {
		int id, v;
		char w[32];

		if (sscanf(line, "value %31s %63s", vname[nval], vval[nval]) == 2 && nval < 31)
			nval++;
		else if (sscanf(line, "drop %d %d", &id, &v) == 2 && id > 0 && id < MAXID)
			drop[id] = v;
		else if (sscanf(line, "delay %d %d", &id, &v) == 2 && id > 0 && id < MAXID)
			delay_[id] = v;
		else if (sscanf(line, "noise %d %d", &id, &v) == 2 && id > 0 && id < MAXID && v > 0)
			noise[id] = v;
		else if (sscanf(line, "%31s %d", w, &id) == 2 && id > 0 && id < MAXID) {
			if (!strcmp(w, "dup")) dup_[id] = 1;
			if (!strcmp(w, "stale")) stale[id] = 1;
			if (!strcmp(w, "spoof")) spoof[id] = 1;
			if (!strcmp(w, "garbage")) garbage[id] = 1;
		}
		if (strncmp(line, "args", 4) == 0) {
			char *p = strtok(line + 4, " \n");

			nargs = 0;
			while (p && nargs < 7) {
				args[nargs++] = strdup(p);
				p = strtok(NULL, " \n");
			}
		}
	}
	if (f)
		fclose(f);

	srv = socket(AF_INET, SOCK_DGRAM, 0);
	spf = socket(AF_INET, SOCK_DGRAM, 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(srv, (struct sockaddr *)&a, sizeof a) < 0 || bind(spf, (struct sockaddr *)&a, sizeof a) < 0) {
		perror("bench: bind");
		return 1;
	}
	getsockname(srv, (struct sockaddr *)&a, &al);
	{
		int on = 1;

		setsockopt(srv, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
	}
	snprintf(portstr, sizeof portstr, "%d", ntohs(a.sin_port));

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *av[10];
		int n = 0;

		close(srv);
		close(spf);
		av[n++] = "udpq";
		if (nargs < 0)
			av[n++] = portstr;
		else
			for (i = 0; i < nargs; i++)
				av[n++] = args[i];
		av[n] = NULL;
		execv("../udpq", av);
		_exit(126);
	}

	t0 = now_ms();
	while (now_ms() - t0 < 5000) {
		struct pollfd p = { srv, POLLIN, 0 };
		char d[512];

		if (waitpid(pid, &status, WNOHANG) == pid) {
			exited = 1;
			break;
		}
		if (poll(&p, 1, 2) > 0) {
			ssize_t r;

			struct iovec iov = { d, sizeof d - 1 };
			char cbuf[256];
			struct msghdr mh;
			struct cmsghdr *cm;

			memset(&mh, 0, sizeof mh);
			mh.msg_name = &cli;
			mh.msg_namelen = sizeof cli;
			mh.msg_iov = &iov;
			mh.msg_iovlen = 1;
			mh.msg_control = cbuf;
			mh.msg_controllen = sizeof cbuf;
			r = recvmsg(srv, &mh, 0);
			if (r > 0) {
				rx_ms = now_ms();
				/* the kernel's arrival time, not the bench's reading time */
				for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
					if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS) {
						struct timespec ts;

						memcpy(&ts, CMSG_DATA(cm), sizeof ts);
						rx_ms = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
					}
				d[r] = 0;
				handle(d);
			}
		}
		if (cur_id > 0 && noise[cur_id] && now_ms() >= noise_next) {
			char m[64];

			switch (noise_tick % 3) {
			case 0: snprintf(m, sizeof m, "RSP %d stale", cur_id - 1); break;
			case 1: snprintf(m, sizeof m, "RSP %d", cur_id); break;
			default: snprintf(m, sizeof m, "RSP %d ahead", cur_id + 1); break;
			}
			send_to_cli(srv, m);
			if (noise_tick % 3 == 2) {
				snprintf(m, sizeof m, "RSP %d spoofed", cur_id);
				send_to_cli(spf, m);
			}
			noise_tick++;
			noise_next += noise[cur_id];
			if (noise_next < now_ms())
				noise_next = now_ms() + noise[cur_id];
		}
		for (i = 0; i < npend; i++)
			if (now_ms() >= pend[i].at) {
				send_to_cli(srv, pend[i].msg);
				pend[i] = pend[--npend];
				i--;
			}
	}
	if (!exited) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		printf("udpq still running after 5 s\n");
	}

	fputs(logbuf, stdout);
	if (exited && WIFEXITED(status))
		printf("udpq exit %d\n", WEXITSTATUS(status));
	else if (exited)
		printf("udpq signal %d\n", WTERMSIG(status));
	{
		int bad = 0;

		for (i = 1; i < MAXID; i++) {
			int k;

			if (!sent[i])
				continue;
			printf("id %d sent %d times\n", i, sent[i]);
			for (k = 1; k < sent[i] && k < 8; k++) {
				long long want = 40LL << (k - 1), gap = tx_time[i][k] - tx_time[i][k - 1];

				if (gap < want - 3) {
					printf("id %d transmission %d came %lld ms after the previous one, before %lld ms\n", i, k + 1, gap, want);
					bad = 1;
				}
				/* generous: only a wait that ignored datagrams extended */
				if (noise[i] && gap > want + NOISE_SLACK) {
					printf("id %d transmission %d came %lld ms after the previous one, later than %lld ms\n",
					       i, k + 1, gap, want + NOISE_SLACK);
					bad = 1;
				}
			}
		}
		for (i = 1; i + 1 < MAXID; i++)
			if (sent[i] == 4 && drop[i] >= 4 && sent[i + 1] &&
			    tx_time[i + 1][0] - tx_time[i][3] < 317) {
				printf("id %d sent %lld ms after the 4th transmission of id %d, before 320 ms\n",
				       i + 1, tx_time[i + 1][0] - tx_time[i][3], i);
				bad = 1;
			}
		for (i = 1; i + 1 < MAXID; i++)
			if (noise[i] && sent[i] == 4 && drop[i] >= 4 && sent[i + 1] &&
			    tx_time[i + 1][0] - tx_time[i][3] > 320 + NOISE_SLACK) {
				printf("id %d sent %lld ms after the 4th transmission of id %d, later than %d ms\n",
				       i + 1, tx_time[i + 1][0] - tx_time[i][3], i, 320 + NOISE_SLACK);
				bad = 1;
			}
		if (!bad)
			printf("backoff ok\n");
	}
	return 0;
}
