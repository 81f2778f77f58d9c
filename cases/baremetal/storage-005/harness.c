/*
 * Hidden test application for storage-005 (not shown to the model).
 *
 * Simulates the 256-byte EEPROM of ring.h in RAM and reads commands from
 * UART0, one a line:
 *
 *   blank | zero                  EEPROM all 0xFF / all 0x00
 *   slot <i> <seq> <seed>         a valid record (the harness's own CRC) in slot i
 *   corrupt <i> <byte>            byte of slot i XOR 0x5A
 *   init                          "init <rc>"
 *   latest                        "latest 0 seq <s> payload <ok|wrong>" / "latest -1 [written]"
 *   append <seed>                 "append <rc>", then "wrote slot <i> seq <s> crc <ok|bad> payload <ok|bad>"
 *                                 per modified slot, or "wrote nothing"
 *   appendn <n> <seed>            n appends: "appendn <done> last <rc> seq <s> valid <count>"
 *   rfail on|off, wfail on|off    eeprom_read / eeprom_write fail
 *   crc <hex>|-                   "crc <xx>" of ring_crc8
 *   end                           exit(0)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"

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

/* ------------------------------------------------------------ EEPROM */

static uint8_t eeprom[EEPROM_SIZE];
static int rfail, wfail;

int eeprom_read(uint32_t addr, void *buf, size_t len)
{
	if (rfail || addr > EEPROM_SIZE || len > EEPROM_SIZE - addr || (buf == NULL && len != 0u)) {
		return -1;
	}
	memcpy(buf, &eeprom[addr], len);
	return 0;
}

int eeprom_write(uint32_t addr, const void *data, size_t len)
{
	if (wfail || addr > EEPROM_SIZE || len > EEPROM_SIZE - addr || (data == NULL && len != 0u)) {
		return -1;
	}
	memcpy(&eeprom[addr], data, len);
	return 0;
}

/* ------------------------------------------------------------ helpers */

static uint8_t crc8_ref(const uint8_t *d, size_t n)
{
	uint8_t c = 0xFFu;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		c ^= d[i];
		for (b = 0; b < 8; b++) {
			c = (c & 0x80u) ? (uint8_t)((c << 1) ^ 0x31u) : (uint8_t)(c << 1);
		}
	}
	return c;
}

static void make_payload(uint8_t *p, unsigned seed)
{
	unsigned j;

	for (j = 0; j < RING_PAYLOAD; j++) {
		p[j] = (uint8_t)(seed * 7u + j * 13u + (seed >> 3));
	}
}

static void puthex8(uint8_t b)
{
	static const char hex[] = "0123456789abcdef";

	putch(hex[b >> 4]);
	putch(hex[b & 15u]);
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

static int valid_count(void)
{
	unsigned i;
	int n = 0;

	for (i = 0; i < RING_SLOTS; i++) {
		n += crc8_ref(&eeprom[16u * i], 15u) == eeprom[16u * i + 15u];
	}
	return n;
}

/* ------------------------------------------------------------ main */

int main(void)
{
	char line[128], cmd[24];
	static uint8_t before[EEPROM_SIZE];

	UART0_BAUD = 217u;
	UART0_CTRL = 3u;
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming, so the
	 * input never stalls on a loaded host. */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */
	memset(eeprom, 0xFF, sizeof eeprom);

	for (;;) {
		const char *s;

		getline_(line, sizeof line);
		s = word(line, cmd, sizeof cmd);
		if (cmd[0] == 0) {
			continue;
		}
		if (strcmp(cmd, "blank") == 0) {
			memset(eeprom, 0xFF, sizeof eeprom);
		} else if (strcmp(cmd, "zero") == 0) {
			memset(eeprom, 0x00, sizeof eeprom);
		} else if (strcmp(cmd, "slot") == 0) {
			long i = num(&s), seq = num(&s), seed = num(&s);
			uint8_t *r;
			if (i < 0 || i >= (long)RING_SLOTS) {
				puts_("bad script");
				nl();
				continue;
			}
			r = &eeprom[16u * (unsigned)i];
			r[0] = (uint8_t)seq;
			make_payload(&r[1], (unsigned)seed);
			r[15] = crc8_ref(r, 15u);
		} else if (strcmp(cmd, "corrupt") == 0) {
			long i = num(&s), b = num(&s);
			if (i < 0 || i >= (long)RING_SLOTS || b < 0 || b > 15) {
				puts_("bad script");
				nl();
				continue;
			}
			eeprom[16u * (unsigned)i + (unsigned)b] ^= 0x5Au;
		} else if (strcmp(cmd, "init") == 0) {
			puts_("init ");
			putnum(ring_init());
			nl();
		} else if (strcmp(cmd, "latest") == 0) {
			uint8_t p[RING_PAYLOAD + 4], q[RING_PAYLOAD + 4], seq = 0xA5u;
			int rc;
			unsigned i, best = RING_SLOTS;
			memset(p, 0xA5, sizeof p);
			rc = ring_latest(p, &seq);
			puts_("latest ");
			putnum(rc);
			if (rc == 0) {
				puts_(" seq ");
				putnum(seq);
				/* the payload must be that of the valid slot holding this seq */
				for (i = 0; i < RING_SLOTS; i++) {
					uint8_t *r = &eeprom[16u * i];
					if (crc8_ref(r, 15u) == r[15] && r[0] == seq) {
						best = i;
					}
				}
				memcpy(q, p, sizeof q);
				puts_(best < RING_SLOTS && memcmp(q, &eeprom[16u * best + 1u], RING_PAYLOAD) == 0 &&
				      q[RING_PAYLOAD] == 0xA5u ? " payload ok" : " payload wrong");
			} else {
				for (i = 0; i < RING_PAYLOAD + 4u; i++) {
					if (p[i] != 0xA5u) {
						break;
					}
				}
				if (i != RING_PAYLOAD + 4u || seq != 0xA5u) {
					puts_(" written");
				}
			}
			nl();
		} else if (strcmp(cmd, "append") == 0) {
			long seed = num(&s);
			uint8_t p[RING_PAYLOAD];
			unsigned i;
			int rc, any = 0;
			make_payload(p, (unsigned)seed);
			memcpy(before, eeprom, sizeof eeprom);
			rc = ring_append(p);
			puts_("append ");
			putnum(rc);
			nl();
			for (i = 0; i < RING_SLOTS; i++) {
				uint8_t *r = &eeprom[16u * i];
				if (memcmp(r, &before[16u * i], 16u) == 0) {
					continue;
				}
				any = 1;
				puts_("wrote slot ");
				putnum((long)i);
				puts_(" seq ");
				putnum(r[0]);
				puts_(crc8_ref(r, 15u) == r[15] ? " crc ok" : " crc bad");
				puts_(memcmp(&r[1], p, RING_PAYLOAD) == 0 ? " payload ok" : " payload bad");
				nl();
			}
			if (!any) {
				puts_("wrote nothing");
				nl();
			}
		} else if (strcmp(cmd, "appendn") == 0) {
			long n = num(&s), seed = num(&s), i;
			uint8_t p[RING_PAYLOAD];
			int rc = -1;
			for (i = 0; i < n; i++) {
				make_payload(p, (unsigned)(seed + i));
				rc = ring_append(p);
				if (rc < 0) {
					break;
				}
			}
			puts_("appendn ");
			putnum(i);
			puts_(" last ");
			putnum(rc);
			if (rc >= 0 && rc < (int)RING_SLOTS) {
				puts_(" seq ");
				putnum(eeprom[16u * (unsigned)rc]);
			}
			puts_(" valid ");
			putnum(valid_count());
			nl();
		} else if (strcmp(cmd, "rfail") == 0 || strcmp(cmd, "wfail") == 0) {
			char w[8];
			word(s, w, sizeof w);
			*(cmd[0] == 'r' ? &rfail : &wfail) = strcmp(w, "on") == 0;
		} else if (strcmp(cmd, "crc") == 0) {
			char w[80];
			uint8_t d[40];
			unsigned n = 0;
			word(s, w, sizeof w);
			if (strcmp(w, "-") != 0) {
				while (w[2u * n] && w[2u * n + 1u] && n < sizeof d) {
					d[n] = (uint8_t)(hexval(w[2u * n]) * 16 + hexval(w[2u * n + 1u]));
					n++;
				}
			}
			puts_("crc ");
			puthex8(ring_crc8(d, n));
			nl();
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
