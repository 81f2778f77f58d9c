/*
 * Hidden test application for memory-opt-005 (not shown to the model).
 *
 * Reads a script from UART0, one command a line, and prints on UART0:
 *
 *   pack <seq> <temperature_cC> <battery_mV> <humidity_pct> <alarm> <mode> <accel_mg>
 *       -> "pack <rc> <14 hex digits, out[0] first>" (out pre-filled with 0xee),
 *          then, when rc is 0, the round trip "back <rc> <fields>"
 *   unpack <14 hex digits, in[0] first>
 *       -> "unpack <rc> <fields>" or "unpack -1 untouched" / "unpack -1 written"
 *   end -> exit(0)
 *
 * <fields> is "seq=.. temp=.. batt=.. hum=.. alarm=.. mode=.. accel=..".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tlm.h"

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
	unsigned long u = v < 0 ? (unsigned long)(-v) : (unsigned long)v;

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

static int getline_(char *buf, int cap)
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
	return n;
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

static void puthex8(uint8_t b)
{
	static const char hex[] = "0123456789abcdef";

	putch(hex[b >> 4]);
	putch(hex[b & 15u]);
}

static void fields(const tlm_record_t *r)
{
	puts_(" seq=");
	putnum(r->seq);
	puts_(" temp=");
	putnum(r->temperature_cC);
	puts_(" batt=");
	putnum(r->battery_mV);
	puts_(" hum=");
	putnum(r->humidity_pct);
	puts_(" alarm=");
	putnum(r->alarm ? 1 : 0);
	puts_(" mode=");
	putnum(r->mode);
	puts_(" accel=");
	putnum(r->accel_mg);
}

static int unpack_line(const char *tag, const uint8_t *in)
{
	tlm_record_t r, sentinel;
	int rc;

	memset(&r, 0xA5, sizeof r);
	memcpy(&sentinel, &r, sizeof r);
	rc = tlm_unpack(in, &r);
	puts_(tag);
	putnum(rc);
	if (rc == 0) {
		fields(&r);
	} else {
		puts_(memcmp(&r, &sentinel, sizeof r) == 0 ? " untouched" : " written");
	}
	nl();
	return rc;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9') {
		return ch - '0';
	}
	if (ch >= 'a' && ch <= 'f') {
		return ch - 'a' + 10;
	}
	if (ch >= 'A' && ch <= 'F') {
		return ch - 'A' + 10;
	}
	return -1;
}

int main(void)
{
	char line[128], cmd[24];

	UART0_BAUD = 217u;
	UART0_CTRL = 3u;
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming, so the
	 * input never stalls on a loaded host. */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */

	for (;;) {
		const char *s;

		getline_(line, sizeof line);
		s = word(line, cmd, sizeof cmd);
		if (cmd[0] == 0) {
			continue;
		}
		if (strcmp(cmd, "pack") == 0) {
			tlm_record_t r;
			uint8_t out[TLM_PACKED_SIZE + 1u];
			unsigned i;
			int rc;

			memset(&r, 0, sizeof r);
			r.seq = (uint16_t)num(&s);
			r.temperature_cC = (int16_t)num(&s);
			r.battery_mV = (uint16_t)num(&s);
			r.humidity_pct = (uint8_t)num(&s);
			r.alarm = num(&s) != 0;
			r.mode = (uint8_t)num(&s);
			r.accel_mg = (int16_t)num(&s);
			memset(out, 0xEE, sizeof out);
			rc = tlm_pack(&r, out);
			puts_("pack ");
			putnum(rc);
			putch(' ');
			for (i = 0; i < TLM_PACKED_SIZE; i++) {
				puthex8(out[i]);
			}
			if (out[TLM_PACKED_SIZE] != 0xEEu) {
				puts_(" overrun");
			}
			nl();
			if (rc == 0) {
				(void)unpack_line("back ", out);
			}
		} else if (strcmp(cmd, "unpack") == 0) {
			char w[40];
			uint8_t in[TLM_PACKED_SIZE];
			unsigned i;
			int bad = 0;

			word(s, w, sizeof w);
			if (strlen(w) != 2u * TLM_PACKED_SIZE) {
				bad = 1;
			}
			for (i = 0; !bad && i < TLM_PACKED_SIZE; i++) {
				int hi = hexval(w[2u * i]), lo = hexval(w[2u * i + 1u]);
				if (hi < 0 || lo < 0) {
					bad = 1;
				} else {
					in[i] = (uint8_t)(hi * 16 + lo);
				}
			}
			if (bad) {
				puts_("bad script");
				nl();
				continue;
			}
			(void)unpack_line("unpack ", in);
		} else if (strcmp(cmd, "end") == 0) {
			puts_("end");
			nl();
			exit(0);
		} else {
			puts_("? ");
			puts_(line);
			nl();
		}
	}
}
