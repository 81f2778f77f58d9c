/*
 * Hidden test bench for ble-005 (not shown to the model).
 *
 * Reads whitespace-separated tokens from UART0 until "end": each token is
 * one advertising payload in hex ("-" is the empty payload). The payload
 * is copied into a buffer whose bytes after the payload hold a valid
 * Complete Local Name structure "ZZ" again and again, so a parser that
 * reads past len shows. The report is filled with 0xA5 before each call.
 * One line is printed per payload.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "adv_parse.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010UL)

static int uart_getc(void)
{
	while ((UART0_STATE & 2u) == 0u) {
	}
	return (int)(UART0_DATA & 0xFFu);
}

static int next_token(char *tok, unsigned size)
{
	unsigned n = 0;
	int c;
	do {
		c = uart_getc();
	} while (c == ' ' || c == '\n' || c == '\r' || c == '\t');
	while (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
		if (n + 1u < size) {
			tok[n++] = (char)c;
		}
		c = uart_getc();
	}
	tok[n] = '\0';
	return (int)n;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

static char line[400];
static unsigned pos;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void out(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (pos < sizeof line) {
		int n = vsnprintf(line + pos, sizeof line - pos, fmt, ap);
		if (n > 0) {
			pos += (unsigned)n;
		}
	}
	va_end(ap);
}

static int is_empty(const struct adv_report *r)
{
	return !r->has_flags && r->flags == 0 && r->name_kind == ADV_NAME_NONE && r->name_len == 0 &&
	       !r->name_truncated && r->name[0] == '\0' && r->uuid_count == 0 && !r->uuid_list_complete &&
	       !r->uuid_dropped && !r->has_mfr && r->company_id == 0 && r->mfr_len == 0;
}

static void fields(const struct adv_report *r)
{
	/* flags */
	if (r->has_flags) {
		out("flags 0x%02X", r->flags);
	} else {
		out("flags none");
		if (r->flags != 0) {
			out(" (value 0x%02X)", r->flags);
		}
	}
	/* name */
	if (r->name_kind == ADV_NAME_NONE) {
		out("; name none");
		if (r->name_len != 0 || r->name_truncated || r->name[0] != '\0') {
			out(" (not empty)");
		}
	} else {
		unsigned n = r->name_len;
		if (r->name_kind == ADV_NAME_COMPLETE) {
			out("; name complete \"");
		} else if (r->name_kind == ADV_NAME_SHORT) {
			out("; name short \"");
		} else {
			out("; name kind %u \"", (unsigned)r->name_kind);
		}
		if (n > ADV_NAME_MAX) {
			n = ADV_NAME_MAX;
		}
		for (unsigned i = 0; i < n; i++) {
			unsigned char ch = (unsigned char)r->name[i];
			if (ch >= 0x20 && ch < 0x7F && ch != '"' && ch != '\\') {
				out("%c", ch);
			} else {
				out("\\x%02X", ch);
			}
		}
		out("\"");
		if (r->name_len > ADV_NAME_MAX) {
			out(" name_len %u", (unsigned)r->name_len);
		} else if (r->name[r->name_len] != '\0') {
			out(" unterminated");
		}
		if (r->name_truncated) {
			out(" truncated");
		}
	}
	/* uuids */
	{
		unsigned n = r->uuid_count;
		out("; uuids %u", n);
		if (r->uuid_list_complete) {
			out(" complete");
		}
		if (r->uuid_dropped) {
			out(" dropped");
		}
		if (n > ADV_UUID_MAX) {
			out(" (over the limit)");
			n = ADV_UUID_MAX;
		}
		if (n > 0) {
			out(":");
			for (unsigned i = 0; i < n; i++) {
				out(" 0x%04X", r->uuids[i]);
			}
		}
	}
	/* manufacturer data */
	if (r->has_mfr) {
		unsigned n = r->mfr_len;
		out("; mfr 0x%04X", r->company_id);
		if (n > ADV_MFR_DATA_MAX) {
			out(" mfr_len %u", n);
			n = ADV_MFR_DATA_MAX;
		}
		out(":");
		for (unsigned i = 0; i < n; i++) {
			out(" %02X", r->mfr_data[i]);
		}
	} else {
		out("; mfr none");
		if (r->company_id != 0 || r->mfr_len != 0) {
			out(" (not empty)");
		}
	}
}

static uint8_t buf[64];
static struct adv_report rep;

int main(void)
{
	static const uint8_t filler[4] = {0x03, AD_TYPE_NAME_COMPLETE, 'Z', 'Z'};
	char tok[160];
	unsigned index = 0;

	UART0_BAUD = 16;
	UART0_CTRL = 3u;
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming. */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */
	for (;;) {
		size_t len = 0;
		int bad = 0;

		next_token(tok, sizeof tok);
		if (strcmp(tok, "end") == 0) {
			break;
		}
		index++;
		for (unsigned i = 0; i < sizeof buf; i++) {
			buf[i] = filler[i % 4u];
		}
		if (strcmp(tok, "-") != 0) {
			size_t n = strlen(tok);
			if (n % 2u != 0u || n / 2u > sizeof buf - 8u) {
				bad = 1;
			}
			for (size_t i = 0; !bad && i < n; i += 2u) {
				int hi = hexval(tok[i]), lo = hexval(tok[i + 1u]);
				if (hi < 0 || lo < 0) {
					bad = 1;
				} else {
					buf[len++] = (uint8_t)(hi << 4 | lo);
				}
			}
		}
		if (bad) {
			printf("#%u bad script token\n", index);
			continue;
		}
		memset(&rep, 0xA5, sizeof rep);
		int rc = adv_parse(buf, len, &rep);
		pos = 0;
		line[0] = '\0';
		if (rc == ADV_OK) {
			out("#%u ok; ", index);
			fields(&rep);
		} else if (rc == ADV_ERR_TOO_LONG || rc == ADV_ERR_MALFORMED) {
			out("#%u %s, ", index, rc == ADV_ERR_TOO_LONG ? "too long" : "malformed");
			if (is_empty(&rep)) {
				out("cleared");
			} else {
				out("not cleared: ");
				fields(&rep);
			}
		} else {
			out("#%u rc %d; ", index, rc);
			fields(&rep);
		}
		printf("%s\n", line);
	}
	printf("end\n");
	exit(0);
}
