/* cobsframe: COBS encoder / streaming decoder for the serial link tool.
 * No dynamic memory: every buffer is a fixed-size static or local array. */
#include <stdio.h>
#include <string.h>

enum {
    MAX_PAYLOAD = 256,
    MAX_FRAME   = 258,     /* longest legal encoded frame, delimiter excluded */
    MAX_LINE    = 2000,
    FULL_BLOCK  = 254      /* data bytes carried by a 0xFF block */
};

/* ---------------- encoder: one piece between zeros at a time --------------- */

static unsigned emit_piece(const unsigned char *piece, unsigned plen,
                           int is_last_piece, unsigned char *out)
{
    unsigned w = 0;

    while (plen >= FULL_BLOCK) {
        out[w++] = 0xFF;
        memcpy(out + w, piece, FULL_BLOCK);
        w += FULL_BLOCK;
        piece += FULL_BLOCK;
        plen -= FULL_BLOCK;
        if (plen == 0 && is_last_piece)
            return w;                      /* ends on a full block */
    }
    out[w++] = (unsigned char)(plen + 1);
    memcpy(out + w, piece, plen);
    return w + plen;
}

static unsigned encode(const unsigned char *in, unsigned len, unsigned char *out)
{
    unsigned w = 0, start = 0;

    for (unsigned i = 0; i <= len; i++) {
        if (i == len || in[i] == 0) {
            w += emit_piece(in + start, i - start, i == len, out + w);
            start = i + 1;
        }
    }
    out[w++] = 0;
    return w;
}

/* ---------------- decoder: byte-at-a-time state machine ------------------- */

static struct {
    unsigned raw;                       /* bytes seen in this frame */
    unsigned left;                      /* data bytes still owed by the block */
    unsigned char code;                 /* code byte of the current block */
    unsigned out_len;
    int out_overflow;
    unsigned char out[MAX_PAYLOAD];
} dec;

static void dec_put(unsigned char b)
{
    if (dec.out_len < MAX_PAYLOAD)
        dec.out[dec.out_len++] = b;
    else
        dec.out_overflow = 1;
}

static void dec_reset(void)
{
    dec.raw = 0;
    dec.left = 0;
    dec.code = 0;
    dec.out_len = 0;
    dec.out_overflow = 0;
}

static void put_hex(const unsigned char *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        printf("%02X", p[i]);
}

static void dec_end_frame(void)
{
    if (dec.raw == 0) {
        /* empty frame: ignored */
    } else if (dec.raw > MAX_FRAME) {
        printf("ERROR oversize\n");
    } else if (dec.left != 0) {
        printf("ERROR corrupt\n");
    } else if (dec.out_overflow) {
        printf("ERROR oversize\n");
    } else {
        printf("FRAME");
        if (dec.out_len) {
            printf(" ");
            put_hex(dec.out, dec.out_len);
        }
        printf("\n");
    }
    dec_reset();
}

static void dec_byte(unsigned char b)
{
    if (b == 0) {
        dec_end_frame();
        return;
    }
    if (dec.raw > MAX_FRAME)
        return;                         /* already oversize: wait for 0x00 */
    dec.raw++;
    if (dec.left > 0) {
        dec_put(b);
        dec.left--;
        return;
    }
    /* a new code byte: the previous block (if any, and not 0xFF) is
     * followed by a zero because another block comes after it */
    if (dec.code != 0 && dec.code != 0xFF)
        dec_put(0);
    dec.code = b;
    dec.left = b - 1u;
}

/* ---------------- command handling --------------------------------------- */

static int nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static void command(const char *s, unsigned n)
{
    static unsigned char bytes[MAX_LINE / 2];
    unsigned nbytes = 0;
    char cmd;

    if (n == 0)
        return;
    cmd = s[0];
    if ((cmd != 'E' && cmd != 'D') || (n >= 2 && s[1] != ' '))
        goto syntax;

    if (n > 2) {
        const char *h = s + 2;
        unsigned hl = n - 2;
        if (hl & 1u)
            goto syntax;
        for (unsigned i = 0; i < hl; i += 2) {
            int a = nibble(h[i]), b = nibble(h[i + 1]);
            if (a < 0 || b < 0)
                goto syntax;
            bytes[nbytes++] = (unsigned char)((a << 4) | b);
        }
    }

    if (cmd == 'E') {
        unsigned char frame[MAX_FRAME + 1];
        if (nbytes > MAX_PAYLOAD) {
            printf("ERROR oversize\n");
            return;
        }
        put_hex(frame, encode(bytes, nbytes, frame));
        printf("\n");
    } else {
        for (unsigned i = 0; i < nbytes; i++)
            dec_byte(bytes[i]);
    }
    return;

syntax:
    printf("ERROR syntax\n");
}

int main(void)
{
    static char line[MAX_LINE + 1];
    unsigned len = 0;
    int too_long = 0;
    int c;

    dec_reset();
    for (;;) {
        c = getchar();
        if (c == '\n' || (c == EOF && (len > 0 || too_long))) {
            if (too_long)
                printf("ERROR syntax\n");
            else
                command(line, len);
            len = 0;
            too_long = 0;
        }
        if (c == EOF)
            break;
        if (c == '\n')
            continue;
        if (len < MAX_LINE)
            line[len++] = (char)c;
        else
            too_long = 1;
    }
    return 0;
}
