/*
 * MX-2 CoAP client: option codec with a bounded write cursor (encoder) and
 * a bounded read cursor (decoder).
 */
#include <stdbool.h>
#include "coap_opt.h"

struct wcur { uint8_t *p; size_t left; bool full; };

static void emit(struct wcur *w, uint8_t b)
{
	if (w->left == 0) {
		w->full = true;
		return;
	}
	*w->p++ = b;
	w->left--;
}

static unsigned split(unsigned v, uint8_t ext[2], unsigned *next)
{
	if (v >= 269) {
		ext[0] = (uint8_t)((v - 269) >> 8);
		ext[1] = (uint8_t)((v - 269) & 0xFF);
		*next = 2;
		return 14;
	}
	if (v >= 13) {
		ext[0] = (uint8_t)(v - 13);
		*next = 1;
		return 13;
	}
	*next = 0;
	return v;
}

int coap_options_encode(const struct coap_option *opts, size_t count, uint8_t *buf, size_t size)
{
	struct wcur w = { buf, size, false };
	unsigned last = 0;
	size_t i;

	for (i = 1; i < count; i++)
		if (opts[i].number < opts[i - 1].number)
			return COAP_ERR_ORDER;

	for (i = 0; i < count && !w.full; i++) {
		uint8_t de[2], le[2];
		unsigned dn, ln, dk, lk, k;

		dn = split((unsigned)opts[i].number - last, de, &dk);
		ln = split(opts[i].length, le, &lk);
		last = opts[i].number;
		emit(&w, (uint8_t)((dn << 4) | ln));
		for (k = 0; k < dk; k++)
			emit(&w, de[k]);
		for (k = 0; k < lk; k++)
			emit(&w, le[k]);
		for (k = 0; k < opts[i].length; k++)
			emit(&w, opts[i].value[k]);
	}
	if (w.full)
		return COAP_ERR_NOSPACE;
	return (int)(size - w.left);
}

struct rcur { const uint8_t *b; size_t len, at; };

static bool take(struct rcur *r, unsigned n, unsigned long *out)
{
	unsigned long v = 0;

	if (r->len - r->at < n)
		return false;
	while (n--)
		v = (v << 8) | r->b[r->at++];
	*out = v;
	return true;
}

static bool extended(struct rcur *r, unsigned nib, unsigned long *v)
{
	if (nib == 13) {
		if (!take(r, 1, v))
			return false;
		*v += 13;
	} else if (nib == 14) {
		if (!take(r, 2, v))
			return false;
		*v += 269;
	} else {
		*v = nib;
	}
	return true;
}

int coap_options_decode(const uint8_t *buf, size_t len, struct coap_option *opts, size_t max,
			size_t *payload_offset)
{
	struct rcur r = { buf, len, 0 };
	unsigned long num = 0;
	size_t stored = 0;

	for (;;) {
		unsigned long hdr, delta, length;

		if (r.at == len) {
			*payload_offset = len;
			return (int)stored;
		}
		take(&r, 1, &hdr);
		if (hdr == COAP_PAYLOAD_MARKER) {
			if (r.at == len)
				return COAP_ERR_FORMAT;
			*payload_offset = r.at;
			return (int)stored;
		}
		if ((hdr >> 4) == 15 || (hdr & 15) == 15)
			return COAP_ERR_FORMAT;
		if (!extended(&r, (unsigned)(hdr >> 4), &delta) || !extended(&r, (unsigned)(hdr & 15), &length))
			return COAP_ERR_FORMAT;
		if (length > len - r.at)
			return COAP_ERR_FORMAT;
		num += delta;
		if (num > 65535)
			return COAP_ERR_NUMBER;
		if (stored >= max)
			return COAP_ERR_TOO_MANY;
		opts[stored].number = (uint16_t)num;
		opts[stored].length = (uint16_t)length;
		opts[stored].value = buf + r.at;
		stored++;
		r.at += length;
	}
}
