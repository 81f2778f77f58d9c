/* COBS tool with a byte-at-a-time decoder state machine (no frame buffer of
 * encoded bytes: the payload is produced while the frame arrives). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

enum { PAYLOAD_MAX = 256, FRAME_MAX = 258 };

typedef struct {
	unsigned char out[PAYLOAD_MAX];
	unsigned raw;       /* encoded bytes seen in this frame (saturating) */
	unsigned produced;  /* decoded bytes, may exceed PAYLOAD_MAX */
	unsigned left;      /* data bytes still expected in the current block */
	unsigned code;      /* code byte of the current block, 0 before the first */
} rx_state;

static rx_state rx;

static void put_payload(unsigned char b)
{
	if (rx.produced < PAYLOAD_MAX)
		rx.out[rx.produced] = b;
	rx.produced++;
}

static void rx_reset(void)
{
	memset(&rx, 0, sizeof rx);
}

static void rx_byte(unsigned char b)
{
	if (b != 0) {
		if (rx.raw <= FRAME_MAX)
			rx.raw++;
		if (rx.left > 0) {
			put_payload(b);
			rx.left--;
		} else {
			if (rx.code != 0 && rx.code != 0xFF)
				put_payload(0);      /* the zero between two blocks */
			rx.code = b;
			rx.left = b - 1u;
		}
		return;
	}
	/* delimiter: judge the frame */
	if (rx.raw == 0) {
		/* nothing */
	} else if (rx.raw > FRAME_MAX) {
		printf("ERROR oversize\n");
	} else if (rx.left > 0) {
		printf("ERROR corrupt\n");
	} else if (rx.produced > PAYLOAD_MAX) {
		printf("ERROR oversize\n");
	} else {
		printf("FRAME%s", rx.produced ? " " : "");
		for (unsigned i = 0; i < rx.produced; i++)
			printf("%02X", rx.out[i]);
		printf("\n");
	}
	rx_reset();
}

static void encode_and_print(const unsigned char *p, unsigned n)
{
	unsigned char frame[FRAME_MAX + 1];
	unsigned w = 0, run_start = 0;

	/* emit block by block: a block ends at a zero, at 254 data bytes, or at the end */
	unsigned i = 0;
	for (;;) {
		unsigned run = 0;
		while (i < n && p[i] != 0 && run < 254) {
			run++;
			i++;
		}
		frame[w++] = (unsigned char)(run + 1);
		memcpy(frame + w, p + run_start, run);
		w += run;
		if (run == 254) {
			if (i == n)
				break;          /* payload ends on a full block */
		} else if (i < n) {
			i++;                    /* consume the zero */
		} else {
			break;
		}
		run_start = i;
	}
	frame[w++] = 0;
	for (unsigned k = 0; k < w; k++)
		printf("%02X", frame[k]);
	printf("\n");
}

static int unhex(const char *s, unsigned char *dst, unsigned *count)
{
	size_t len = strlen(s);
	unsigned n = 0;

	if (len & 1)
		return -1;
	for (size_t k = 0; k < len; k += 2) {
		unsigned v;
		if (!isxdigit((unsigned char)s[k]) || !isxdigit((unsigned char)s[k + 1]))
			return -1;
		sscanf((char[3]){ s[k], s[k + 1], 0 }, "%2x", &v);
		dst[n++] = (unsigned char)v;
	}
	*count = n;
	return 0;
}

int main(void)
{
	static char in[2048];
	static unsigned char data[1024];

	rx_reset();
	while (fgets(in, sizeof in, stdin) != NULL) {
		unsigned n;
		char *nl = strpbrk(in, "\r\n");

		if (nl)
			*nl = 0;
		if (in[0] == 0)
			continue;
		if (!(in[0] == 'E' || in[0] == 'D') || !(in[1] == 0 || in[1] == ' ') ||
		    unhex(in[1] ? in + 2 : in + 1, data, &n) != 0) {
			printf("ERROR syntax\n");
			continue;
		}
		if (in[0] == 'D') {
			for (unsigned k = 0; k < n; k++)
				rx_byte(data[k]);
		} else if (n > PAYLOAD_MAX) {
			printf("ERROR oversize\n");
		} else {
			encode_and_print(data, n);
		}
	}
	return 0;
}
