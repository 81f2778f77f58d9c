/*
 * Hidden test application for sensor-driver-006 (not shown to the model).
 *
 * Simulates the HX-20 behind i2c_write_read() with a virtual millisecond
 * clock advanced only by delay_ms(), and prints what the driver returns.
 * Commands read from UART0, one a line:
 *
 *   absent | present        the device NACKs everything / answers normally
 *   resetms <n>             the device NACKs for n ms after a reset (default 2)
 *   id <n>                  chip id answered (default 0x5A31)
 *   crc <mask>              corrupt CRC bytes: 1 id, 2 temperature, 4 humidity
 *   nack <mask>             NACK a command: 1 reset, 2 read id, 4 start
 *   conv <ms>               data ready <ms> after the start (default 5)
 *   raw <St> <Srh>          raw words of the next measurements
 *   init                    "init <rc>"
 *   measure                 "measure 0 t <temp_mc> rh <rh_centi> fetches <n>" or
 *                           "measure <rc> tx <transactions> out unchanged|changed"
 *   measurenull             hx20_measure(NULL): "measure <rc> tx <transactions>"
 *   end                     exit(0)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hx20.h"

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


/* ------------------------------------------------------------ sensor */

static uint32_t now_ms;
static int present = 1;
static uint32_t reset_ms = 2u;
static long reset_at = -1000;
static uint16_t chip_id = 0x5A31u;
static unsigned crc_bad, nack_mask;
static uint32_t conv_ms = 5u;
static long start_at = -1;
static uint16_t raw_t = 0x6666u, raw_h = 0x8000u;
static unsigned long transactions, fetches;

void delay_ms(uint32_t ms)
{
	now_ms += ms;
}

static uint8_t crc8(const uint8_t *d, size_t n)
{
	uint8_t crc = 0xFFu;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		crc ^= d[i];
		for (b = 0; b < 8; b++) {
			crc = (crc & 0x80u) ? (uint8_t)((crc << 1) ^ 0x2Fu) : (uint8_t)(crc << 1);
		}
	}
	return crc;
}

static void put_word(uint8_t *p, uint16_t w, int bad)
{
	p[0] = (uint8_t)(w >> 8);
	p[1] = (uint8_t)w;
	p[2] = crc8(p, 2u);
	if (bad) {
		p[2] ^= 0x10u;
	}
}

int i2c_write_read(uint8_t addr, const uint8_t *wr, size_t wlen, uint8_t *rd, size_t rlen)
{
	transactions++;
	if (!present || addr != HX20_ADDR || wr == NULL || wlen != 1u || (rlen != 0u && rd == NULL)) {
		return I2C_ENACK;
	}
	if ((long)now_ms - reset_at < (long)reset_ms) {
		return I2C_ENACK;
	}
	switch (wr[0]) {
	case HX20_CMD_RESET:
		if (rlen != 0u || (nack_mask & 1u)) {
			return I2C_ENACK;
		}
		reset_at = (long)now_ms;
		start_at = -1;
		return I2C_OK;
	case HX20_CMD_READ_ID:
		if (rlen != 3u || (nack_mask & 2u)) {
			return I2C_ENACK;
		}
		put_word(rd, chip_id, crc_bad & 1u);
		return I2C_OK;
	case HX20_CMD_START:
		if (rlen != 0u || (nack_mask & 4u)) {
			return I2C_ENACK;
		}
		start_at = (long)now_ms;
		return I2C_OK;
	case HX20_CMD_FETCH:
		fetches++;
		if (rlen != 6u || start_at < 0 || (long)now_ms - start_at < (long)conv_ms) {
			return I2C_ENACK;
		}
		put_word(rd, raw_t, crc_bad & 2u);
		put_word(rd + 3, raw_h, crc_bad & 4u);
		start_at = -1;
		return I2C_OK;
	default:
		return I2C_ENACK;
	}
}

/* ------------------------------------------------------------ main */

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
		} else if (strcmp(cmd, "resetms") == 0) {
			reset_ms = (uint32_t)num(&s);
		} else if (strcmp(cmd, "id") == 0) {
			chip_id = (uint16_t)num(&s);
		} else if (strcmp(cmd, "crc") == 0) {
			crc_bad = (unsigned)num(&s);
		} else if (strcmp(cmd, "nack") == 0) {
			nack_mask = (unsigned)num(&s);
		} else if (strcmp(cmd, "conv") == 0) {
			conv_ms = (uint32_t)num(&s);
		} else if (strcmp(cmd, "raw") == 0) {
			long t = num(&s), h = num(&s);
			raw_t = (uint16_t)t;
			raw_h = (uint16_t)h;
		} else if (strcmp(cmd, "init") == 0) {
			int rc = hx20_init();
			puts_("init ");
			putnum(rc);
			nl();
		} else if (strcmp(cmd, "measure") == 0 || strcmp(cmd, "measurenull") == 0) {
			struct hx20_sample smp;
			int rc;
			transactions = 0;
			fetches = 0;
			smp.temp_mc = 0x5A5A5A5A;
			smp.rh_centi = 0xA5A5u;
			rc = hx20_measure(cmd[7] ? NULL : &smp);
			puts_("measure ");
			putnum(rc);
			if (rc == HX20_OK && !cmd[7]) {
				puts_(" t ");
				putnum(smp.temp_mc);
				puts_(" rh ");
				putnum(smp.rh_centi);
				puts_(" fetches ");
				putnum((long)fetches);
			} else {
				puts_(" tx ");
				putnum((long)transactions);
				if (!cmd[7]) {
					puts_(smp.temp_mc == 0x5A5A5A5A && smp.rh_centi == 0xA5A5u ? " out unchanged" : " out changed");
				}
			}
			nl();
		} else if (strcmp(cmd, "end") == 0) {
			puts_("end");
			nl();
			exit(0);
		} else {
			puts_("bad script");
			nl();
		}
	}
}
