/*
 * cobsframe - COBS framing test tool for the battery-monitor serial link.
 *
 * The codec below uses only fixed-size buffers (no heap) so that it can be
 * moved unchanged into the MCU firmware.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define COBS_MAX_PAYLOAD   256u
#define COBS_MAX_ENCODED   258u   /* code bytes + data, without delimiter */
#define LINE_MAX_CHARS     2000u

/* ------------------------------------------------------------------ */
/* encoder                                                             */
/* ------------------------------------------------------------------ */

/*
 * Encode len bytes of in[] into out[] (which must hold COBS_MAX_ENCODED + 1
 * bytes).  Returns the number of bytes written, delimiter included.
 */
static size_t cobs_encode(const uint8_t *in, size_t len, uint8_t *out)
{
    size_t code_pos = 0;      /* where the current block's code byte goes */
    size_t w = 1;             /* next write position */
    uint8_t code = 1;
    int ended_on_full = 0;    /* last block written was a full 0xFF block */

    for (size_t i = 0; i < len; i++) {
        ended_on_full = 0;
        if (in[i] == 0) {
            out[code_pos] = code;
            code_pos = w++;
            code = 1;
        } else {
            out[w++] = in[i];
            code++;
            if (code == 0xFF) {
                out[code_pos] = code;
                code_pos = w++;
                code = 1;
                ended_on_full = 1;
            }
        }
    }

    if (ended_on_full) {
        /* payload ends with a full 254-byte run: no empty block after it */
        w = code_pos;
    } else {
        out[code_pos] = code;
    }
    out[w++] = 0x00;
    return w;
}

/* ------------------------------------------------------------------ */
/* stream decoder                                                      */
/* ------------------------------------------------------------------ */

enum cobs_result {
    COBS_NONE,      /* empty frame, nothing to report */
    COBS_FRAME,
    COBS_CORRUPT,
    COBS_OVERSIZE
};

struct cobs_decoder {
    uint8_t buf[COBS_MAX_ENCODED];
    size_t  count;            /* bytes received since last delimiter */
};

static enum cobs_result cobs_judge(const struct cobs_decoder *d,
                                   uint8_t *payload, size_t *plen)
{
    size_t n = d->count;

    if (n == 0)
        return COBS_NONE;
    if (n > COBS_MAX_ENCODED)
        return COBS_OVERSIZE;

    /* first pass: structure check and decoded length */
    size_t pos = 0, out_len = 0;
    while (pos < n) {
        uint8_t code = d->buf[pos];
        size_t remaining = n - pos - 1;
        if ((size_t)(code - 1) > remaining)
            return COBS_CORRUPT;
        pos += code;
        out_len += (size_t)code - 1;
        if (code != 0xFF && pos < n)
            out_len++;
    }
    if (out_len > COBS_MAX_PAYLOAD)
        return COBS_OVERSIZE;

    /* second pass: produce the payload */
    size_t o = 0;
    pos = 0;
    while (pos < n) {
        uint8_t code = d->buf[pos++];
        memcpy(payload + o, d->buf + pos, (size_t)code - 1);
        o += (size_t)code - 1;
        pos += (size_t)code - 1;
        if (code != 0xFF && pos < n)
            payload[o++] = 0;
    }
    *plen = o;
    return COBS_FRAME;
}

static void print_hex(const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        putchar(digits[p[i] >> 4]);
        putchar(digits[p[i] & 0x0F]);
    }
}

static void cobs_feed(struct cobs_decoder *d, uint8_t byte)
{
    if (byte != 0x00) {
        if (d->count < COBS_MAX_ENCODED)
            d->buf[d->count] = byte;
        if (d->count <= COBS_MAX_ENCODED)   /* saturate just past the max */
            d->count++;
        return;
    }

    uint8_t payload[COBS_MAX_ENCODED];
    size_t plen = 0;
    switch (cobs_judge(d, payload, &plen)) {
    case COBS_NONE:
        break;
    case COBS_OVERSIZE:
        puts("ERROR oversize");
        break;
    case COBS_CORRUPT:
        puts("ERROR corrupt");
        break;
    case COBS_FRAME:
        fputs("FRAME", stdout);
        if (plen) {
            putchar(' ');
            print_hex(payload, plen);
        }
        putchar('\n');
        break;
    }
    d->count = 0;
}

/* ------------------------------------------------------------------ */
/* command line front end                                              */
/* ------------------------------------------------------------------ */

static int hex_val(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Parse hex text; returns 0 on success, -1 on syntax error. Bytes beyond
 * max are counted in *n but not stored. */
static int parse_hex(const char *s, size_t slen, uint8_t *out, size_t max,
                     size_t *n)
{
    if (slen % 2 != 0)
        return -1;
    for (size_t i = 0; i < slen; i += 2) {
        int hi = hex_val((unsigned char)s[i]);
        int lo = hex_val((unsigned char)s[i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        if (i / 2 < max)
            out[i / 2] = (uint8_t)(hi << 4 | lo);
    }
    *n = slen / 2;
    return 0;
}

static struct cobs_decoder decoder;

static void handle_line(const char *line, size_t len)
{
    static uint8_t bytes[LINE_MAX_CHARS / 2 + 1];
    const char *arg;
    size_t arglen, n;

    if (len == 0)
        return;
    if ((line[0] != 'E' && line[0] != 'D') || (len > 1 && line[1] != ' ')) {
        puts("ERROR syntax");
        return;
    }
    arg = len > 1 ? line + 2 : line + 1;
    arglen = len > 1 ? len - 2 : 0;

    if (parse_hex(arg, arglen, bytes, sizeof bytes, &n) != 0) {
        puts("ERROR syntax");
        return;
    }

    if (line[0] == 'E') {
        if (n > COBS_MAX_PAYLOAD) {
            puts("ERROR oversize");
            return;
        }
        uint8_t enc[COBS_MAX_ENCODED + 1];
        size_t elen = cobs_encode(bytes, n, enc);
        print_hex(enc, elen);
        putchar('\n');
    } else {
        for (size_t i = 0; i < n; i++)
            cobs_feed(&decoder, bytes[i]);
    }
}

int main(void)
{
    static char line[LINE_MAX_CHARS + 3];

    while (fgets(line, sizeof line, stdin)) {
        size_t len = strlen(line);
        if (len > 0 && line[len - 1] == '\n') {
            line[--len] = '\0';
        } else if (!feof(stdin)) {
            /* longer than any allowed line: drop the rest, report it */
            int c;
            while ((c = getchar()) != EOF && c != '\n')
                ;
            puts("ERROR syntax");
            continue;
        }
        handle_line(line, len);
    }
    return 0;
}
