/* cobsframe: COBS encoder and stream decoder for the battery-monitor link. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>

#define MAX_PAYLOAD 256u
#define MAX_ENCODED 258u /* 256 + ceil(256 / 254) code bytes */
#define LINE_MAX_CHARS 2000u

struct cobs_decoder {
	uint8_t frame[MAX_ENCODED];
	size_t len;           /* bytes of the current frame received so far */
};

/* Encode len bytes of in into out (the caller reserves MAX_ENCODED + 1);
 * returns the encoded length including the delimiter. */
static size_t cobs_encode(const uint8_t *in, size_t len, uint8_t *out)
{
	size_t code_at = 0, o = 1, i;
	uint8_t code = 1;

	for (i = 0; i < len; i++) {
		if (in[i] == 0) {
			out[code_at] = code;
			code_at = o++;
			code = 1;
			continue;
		}
		out[o++] = in[i];
		if (++code == 0xFF) {
			out[code_at] = code;
			code = 1;
			if (i + 1 == len) {     /* payload ends on a full block */
				out[o++] = 0x00;
				return o;
			}
			code_at = o++;
		}
	}
	out[code_at] = code;
	out[o++] = 0x00;
	return o;
}

/* Decode one frame (delimiter excluded). Returns the payload length, -1 when
 * a code byte overruns the frame, -2 when the payload exceeds MAX_PAYLOAD. */
static int cobs_decode(const uint8_t *in, size_t len, uint8_t *out)
{
	size_t i = 0, o = 0;

	while (i < len) {
		uint8_t code = in[i++];
		size_t n = (size_t)code - 1;

		if (n > len - i)
			return -1;
		if (o + n > MAX_PAYLOAD)
			return -2;
		memcpy(out + o, in + i, n);
		o += n;
		i += n;
		if (code != 0xFF && i < len) {
			if (o + 1 > MAX_PAYLOAD)
				return -2;
			out[o++] = 0;
		}
	}
	return (int)o;
}

static void print_hex(const char *prefix, const uint8_t *b, size_t n)
{
	size_t i;

	fputs(prefix, stdout);
	for (i = 0; i < n; i++)
		printf("%02X", b[i]);
	putchar('\n');
}

static void frame_end(struct cobs_decoder *d)
{
	uint8_t payload[MAX_PAYLOAD];
	int r;

	if (d->len == 0)
		return;
	if (d->len > MAX_ENCODED) {
		puts("ERROR oversize");
	} else {
		r = cobs_decode(d->frame, d->len, payload);
		if (r == -1)
			puts("ERROR corrupt");
		else if (r == -2)
			puts("ERROR oversize");
		else
			print_hex(r == 0 ? "FRAME" : "FRAME ", payload, (size_t)r);
	}
	d->len = 0;
}

static void decoder_feed(struct cobs_decoder *d, uint8_t byte)
{
	if (byte == 0x00) {
		frame_end(d);
		return;
	}
	if (d->len < MAX_ENCODED)
		d->frame[d->len] = byte;
	if (d->len <= MAX_ENCODED)   /* saturate one past the limit: oversize */
		d->len++;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Parse the hex string s into out; returns the byte count or -1. */
static long parse_hex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = strlen(s), i;

	if (n % 2 != 0 || n / 2 > cap)
		return -1;
	for (i = 0; i < n; i += 2) {
		int hi = hexval(s[i]), lo = hexval(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(n / 2);
}

int main(void)
{
	static char line[LINE_MAX_CHARS + 2];
	static uint8_t bytes[LINE_MAX_CHARS / 2];
	static uint8_t encoded[MAX_ENCODED + 1];
	static struct cobs_decoder dec;

	while (fgets(line, sizeof(line), stdin) != NULL) {
		size_t n = strcspn(line, "\r\n");
		const char *arg;
		long count;

		line[n] = '\0';
		if (n == 0)
			continue;
		if ((line[0] != 'E' && line[0] != 'D') || (line[1] != '\0' && line[1] != ' ')) {
			puts("ERROR syntax");
			continue;
		}
		arg = line[1] == ' ' ? line + 2 : line + 1;
		count = parse_hex(arg, bytes, sizeof(bytes));
		if (count < 0) {
			puts("ERROR syntax");
			continue;
		}
		if (line[0] == 'E') {
			if ((size_t)count > MAX_PAYLOAD)
				puts("ERROR oversize");
			else
				print_hex("", encoded, cobs_encode(bytes, (size_t)count, encoded));
		} else {
			long i;

			for (i = 0; i < count; i++)
				decoder_feed(&dec, bytes[i]);
		}
	}
	return 0;
}
