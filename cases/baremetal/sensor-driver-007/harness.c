/*
 * Hidden test application for sensor-driver-007 (not shown to the model).
 *
 * Simulates the QM-6 accelerometer behind i2c_write_read(): a FIFO of 192
 * bytes (32 frames of 6) that the script fills, registers as in qm6.h, and
 * an overflow that shifts the FIFO off frame boundaries. Prints what the
 * driver returns and what it did on the bus. Commands (one a line, UART0):
 *
 *   absent | present     the device NACKs everything / answers normally
 *   id <n>               WHO_AM_I value (default 0xC6)
 *   nackat <k>           the k-th transaction from now is NACKed (1 = next)
 *   push <x> <y> <z>     one frame with these raw values
 *   fill <k>             k frames of generated raw values
 *   arrive <k>           k generated frames arrive after every transaction
 *   badcount <n>         FIFO_STATUS1 reads n (0: the true count)
 *   init <range> <wtm>   "init <rc> tx <n> writes <reg>=<val> ..."
 *   drain <max>          "drain <rc> tx <n> reads <bytes,...> left <frames> check ok|bad"
 *   show <max>           drain, then print "s <x> <y> <z>" for each sample
 *   drainnull            qm6_drain(NULL, 8): "drain <rc> tx <n>"
 *   regs                 "regs ctrl <v> wtm <v> ovr <0|1>"
 *   end                  "end split <n> toolong <n> underrun <n> stale <n>", exit(0)
 *
 * split: a FIFO_DATA read that is not a whole number of frames; toolong: a
 * read refused for rlen > 32; underrun: bytes read from an empty FIFO;
 * stale: FIFO_DATA read while OVR is set.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qm6.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000u)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004u)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008u)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010u)

/* ------------------------------------------------------------ console */

static void putch(char ch)
{
	while (UART0_STATE & 1u) {
	}
	UART0_DATA = (uint8_t)ch;
}

static void puts_(const char *s)
{
	while (*s) {
		putch(*s++);
	}
}

static void putnum(long v)
{
	char tmp[24];
	int n = 0;
	unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;

	if (v < 0) {
		putch('-');
	}
	do {
		tmp[n++] = (char)('0' + u % 10u);
		u /= 10u;
	} while (u);
	while (n) {
		putch(tmp[--n]);
	}
}

static void puthex2(unsigned v)
{
	static const char hx[] = "0123456789ABCDEF";

	putch(hx[(v >> 4) & 15u]);
	putch(hx[v & 15u]);
}

static void nl(void)
{
	putch('\r');
	putch('\n');
}

static int getch(void)
{
	while ((UART0_STATE & 2u) == 0u) {
	}
	return (int)(UART0_DATA & 0xFFu);
}

static void getline_(char *buf, int cap)
{
	int n = 0;

	for (;;) {
		int ch = getch();
		if (ch == '\n') {
			break;
		}
		if (ch == '\r') {
			continue;
		}
		if (n < cap - 1) {
			buf[n++] = (char)ch;
		}
	}
	buf[n] = 0;
}

static const char *word(const char *s, char *out, int cap)
{
	int n = 0;

	while (*s == ' ') {
		s++;
	}
	while (*s && *s != ' ') {
		if (n < cap - 1) {
			out[n++] = *s;
		}
		s++;
	}
	out[n] = 0;
	return s;
}

static long num(const char **s)
{
	char w[24];

	*s = word(*s, w, sizeof w);
	return strtol(w, NULL, 0);
}

/* ------------------------------------------------------------ device */

#define FIFO_BYTES 192u
#define LOG_MAX    16

static uint8_t fifo[FIFO_BYTES];
static unsigned fifo_head, fifo_used;
static int16_t frames[64][3];		/* raw values by frame number since the last flush */
static unsigned frames_pushed;		/* since the last flush */
static unsigned long bytes_popped;	/* since the last flush */
static int ovr;
static uint8_t reg_ctrl, reg_wtm;
static int present = 1;
static uint8_t who = QM6_WHO_AM_I;
static long nack_countdown;
static unsigned arrive_per_tx, bad_count;
static unsigned long gen_state = 20261202ul;

static unsigned long tx_count;
static unsigned long split_reads, toolong_reads, underrun_bytes, stale_reads;
static char wlog[LOG_MAX][6];
static int wlog_n;
static unsigned rlog[LOG_MAX];
static int rlog_n;

static void push_frame(int16_t x, int16_t y, int16_t z)
{
	int16_t v[3] = { x, y, z };
	int i;

	if (fifo_used + QM6_FRAME_BYTES > FIFO_BYTES) {
		/* overflow: the new frame overwrites the oldest bytes half-way
		 * through a frame, so the FIFO is off frame boundaries */
		ovr = 1;
		while (fifo_used + QM6_FRAME_BYTES > FIFO_BYTES) {
			fifo_head = (fifo_head + 3u) % FIFO_BYTES;
			fifo_used -= 3u;
		}
	}
	for (i = 0; i < 3; i++) {
		fifo[(fifo_head + fifo_used++) % FIFO_BYTES] = (uint8_t)((uint16_t)v[i] >> 8);
		fifo[(fifo_head + fifo_used++) % FIFO_BYTES] = (uint8_t)v[i];
	}
	frames[frames_pushed % 64u][0] = x;
	frames[frames_pushed % 64u][1] = y;
	frames[frames_pushed % 64u][2] = z;
	frames_pushed++;
}

static int16_t gen(void)
{
	gen_state = gen_state * 1103515245ul + 12345ul;
	return (int16_t)(uint16_t)(gen_state >> 12);
}

static void flush_fifo(void)
{
	fifo_head = 0;
	fifo_used = 0;
	frames_pushed = 0;
	bytes_popped = 0;
	ovr = 0;
}

static int device(const uint8_t *wr, size_t wlen, uint8_t *rd, size_t rlen)
{
	size_t i;

	if (wr == NULL || wlen < 1u || (rlen != 0u && rd == NULL)) {
		return I2C_ENACK;
	}
	if (wlen == 2u && rlen == 0u) {
		if (wlog_n < LOG_MAX) {
			wlog[wlog_n][0] = (char)wr[0];
			wlog[wlog_n][1] = (char)wr[1];
			wlog_n++;
		}
		switch (wr[0]) {
		case QM6_REG_CTRL:
			reg_ctrl = wr[1];
			return I2C_OK;
		case QM6_REG_FIFO_FLUSH:
			if (wr[1] == QM6_FLUSH) {
				flush_fifo();
			}
			return I2C_OK;
		case QM6_REG_FIFO_WTM:
			reg_wtm = wr[1];
			return I2C_OK;
		default:
			return I2C_ENACK;
		}
	}
	if (wlen != 1u || rlen == 0u) {
		return I2C_ENACK;
	}
	if (wr[0] == QM6_REG_FIFO_DATA) {
		if (rlog_n < LOG_MAX) {
			rlog[rlog_n++] = (unsigned)rlen;
		}
		if (ovr) {
			stale_reads++;
		}
		if (rlen % QM6_FRAME_BYTES != 0u) {
			split_reads++;
		}
		for (i = 0; i < rlen; i++) {
			if (fifo_used == 0u) {
				underrun_bytes++;
				rd[i] = 0u;
				continue;
			}
			rd[i] = fifo[fifo_head];
			fifo_head = (fifo_head + 1u) % FIFO_BYTES;
			fifo_used--;
			bytes_popped++;
		}
		return I2C_OK;
	}
	for (i = 0; i < rlen; i++) {
		uint8_t r = (uint8_t)(wr[0] + i), v;

		switch (r) {
		case QM6_REG_WHO_AM_I:
			v = who;
			break;
		case QM6_REG_FIFO_STATUS1:
			v = bad_count ? (uint8_t)bad_count : (uint8_t)(fifo_used / QM6_FRAME_BYTES);
			break;
		case QM6_REG_FIFO_STATUS2:
			v = (uint8_t)((ovr ? QM6_STATUS2_OVR : 0u) |
				      (reg_wtm && fifo_used / QM6_FRAME_BYTES >= reg_wtm ? QM6_STATUS2_WTM : 0u));
			break;
		default:
			v = 0u;
			break;
		}
		rd[i] = v;
	}
	return I2C_OK;
}

int i2c_write_read(uint8_t addr, const uint8_t *wr, size_t wlen, uint8_t *rd, size_t rlen)
{
	int rc;
	unsigned k;

	tx_count++;
	if (rlen > I2C_MAX_READ) {
		toolong_reads++;
		rc = I2C_ETOOLONG;
	} else if (!present || addr != QM6_ADDR) {
		rc = I2C_ENACK;
	} else if (nack_countdown > 0 && --nack_countdown == 0) {
		rc = I2C_ENACK;
	} else {
		rc = device(wr, wlen, rd, rlen);
	}
	for (k = 0; k < arrive_per_tx; k++) {
		push_frame(gen(), gen(), gen());
	}
	return rc;
}

/* ------------------------------------------------------------ checking */

static long to_mg(int16_t raw, unsigned range)
{
	long long p = (long long)raw * (2000ll << range);
	long long q = (p < 0 ? -p : p);
	long long r = (q + 16384) / 32768;

	return (long)(p < 0 ? -r : r);
}

static void begin_call(void)
{
	tx_count = 0;
	wlog_n = 0;
	rlog_n = 0;
}

/* ------------------------------------------------------------ main */

static struct qm6_sample buf[40];

static void do_drain(long max, int show)
{
	unsigned long first_byte = bytes_popped;
	unsigned first_frame = (unsigned)(first_byte / QM6_FRAME_BYTES);
	unsigned range = reg_ctrl & 3u;
	int aligned = (first_byte % QM6_FRAME_BYTES) == 0u;
	int rc, i, ok = 1;

	if (max < 0 || max > 40) {
		max = 40;
	}
	begin_call();
	memset(buf, 0x5A, sizeof buf);
	rc = qm6_drain(buf, (size_t)max);
	puts_("drain ");
	putnum(rc);
	puts_(" tx ");
	putnum((long)tx_count);
	puts_(" reads ");
	if (rlog_n == 0) {
		putch('-');
	}
	for (i = 0; i < rlog_n; i++) {
		if (i) {
			putch(',');
		}
		putnum((long)rlog[i]);
	}
	puts_(" left ");
	putnum((long)(fifo_used / QM6_FRAME_BYTES));
	if (rc > 0) {
		for (i = 0; i < rc && i < 40; i++) {
			const int16_t *f = frames[(first_frame + (unsigned)i) % 64u];
			if (!aligned || buf[i].x_mg != to_mg(f[0], range) || buf[i].y_mg != to_mg(f[1], range) ||
			    buf[i].z_mg != to_mg(f[2], range)) {
				ok = 0;
			}
		}
		puts_(ok ? " check ok" : " check bad");
	}
	nl();
	if (show && rc > 0) {
		for (i = 0; i < rc && i < 40; i++) {
			puts_("s ");
			putnum(buf[i].x_mg);
			putch(' ');
			putnum(buf[i].y_mg);
			putch(' ');
			putnum(buf[i].z_mg);
			nl();
		}
	}
}

int main(void)
{
	char line[96], cmd[24];

	UART0_BAUD = 217u;
	UART0_CTRL = 3u;
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming. */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */

	for (;;) {
		const char *s;

		getline_(line, sizeof line);
		s = word(line, cmd, sizeof cmd);
		if (cmd[0] == 0) {
			continue;
		}
		if (strcmp(cmd, "absent") == 0) {
			present = 0;
		} else if (strcmp(cmd, "present") == 0) {
			present = 1;
		} else if (strcmp(cmd, "id") == 0) {
			who = (uint8_t)num(&s);
		} else if (strcmp(cmd, "nackat") == 0) {
			nack_countdown = num(&s);
		} else if (strcmp(cmd, "push") == 0) {
			long x = num(&s), y = num(&s), z = num(&s);
			push_frame((int16_t)x, (int16_t)y, (int16_t)z);
		} else if (strcmp(cmd, "fill") == 0) {
			long k = num(&s);
			while (k-- > 0) {
				push_frame(gen(), gen(), gen());
			}
		} else if (strcmp(cmd, "arrive") == 0) {
			arrive_per_tx = (unsigned)num(&s);
		} else if (strcmp(cmd, "badcount") == 0) {
			bad_count = (unsigned)num(&s);
		} else if (strcmp(cmd, "init") == 0) {
			long r = num(&s), w = num(&s);
			int rc, i;
			begin_call();
			rc = qm6_init((uint8_t)r, (uint8_t)w);
			puts_("init ");
			putnum(rc);
			puts_(" tx ");
			putnum((long)tx_count);
			puts_(" writes");
			for (i = 0; i < wlog_n; i++) {
				putch(' ');
				puthex2((uint8_t)wlog[i][0]);
				putch('=');
				puthex2((uint8_t)wlog[i][1]);
			}
			nl();
		} else if (strcmp(cmd, "drain") == 0 || strcmp(cmd, "show") == 0) {
			long max = num(&s);
			do_drain(max, cmd[0] == 's');
		} else if (strcmp(cmd, "drainnull") == 0) {
			int rc;
			begin_call();
			rc = qm6_drain(NULL, 8u);
			puts_("drain ");
			putnum(rc);
			puts_(" tx ");
			putnum((long)tx_count);
			nl();
		} else if (strcmp(cmd, "regs") == 0) {
			puts_("regs ctrl ");
			puthex2(reg_ctrl);
			puts_(" wtm ");
			putnum(reg_wtm);
			puts_(" ovr ");
			putnum(ovr);
			nl();
		} else if (strcmp(cmd, "end") == 0) {
			puts_("end split ");
			putnum((long)split_reads);
			puts_(" toolong ");
			putnum((long)toolong_reads);
			puts_(" underrun ");
			putnum((long)underrun_bytes);
			puts_(" stale ");
			putnum((long)stale_reads);
			nl();
			exit(0);
		} else {
			puts_("bad script");
			nl();
		}
	}
}
