#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coap_opt.h"

/*
 * Encoder: a single pass that checks the remaining room before each write.
 * Option numbers are validated up front so that an ordering error wins
 * over a buffer that is too small.
 */
int coap_options_encode(const struct coap_option *opts, size_t count, uint8_t *buf, size_t size)
{
	size_t used = 0;
	unsigned int last = 0;

	for (size_t i = 1; i < count; i++)
		if (opts[i].number < opts[i - 1].number)
			return COAP_ERR_ORDER;

	for (size_t i = 0; i < count; i++) {
		unsigned int fields[2];
		uint8_t ext[4];
		size_t n_ext = 0;
		uint8_t header = 0;

		fields[0] = (unsigned int)opts[i].number - last;   /* delta */
		fields[1] = opts[i].length;                        /* length */

		for (int f = 0; f < 2; f++) {
			unsigned int v = fields[f];
			unsigned int nib;

			switch (v < 13 ? 0 : v < 269 ? 1 : 2) {
			case 0:
				nib = v;
				break;
			case 1:
				nib = 13;
				ext[n_ext++] = (uint8_t)(v - 13);
				break;
			default:
				nib = 14;
				ext[n_ext++] = (uint8_t)((v - 269) >> 8);
				ext[n_ext++] = (uint8_t)(v - 269);
				break;
			}
			header = (uint8_t)((header << 4) | nib);
		}

		/* header + extended bytes + value */
		if (size - used < 1 + n_ext || size - used - 1 - n_ext < opts[i].length)
			return COAP_ERR_NOSPACE;

		buf[used++] = header;
		memcpy(buf + used, ext, n_ext);
		used += n_ext;
		if (opts[i].length != 0) {
			memcpy(buf + used, opts[i].value, opts[i].length);
			used += opts[i].length;
		}
		last = opts[i].number;
	}

	return (int)used;
}

/*
 * Decoder: walks a cursor between buf and buf + len. Every read of an
 * extended byte or a value is preceded by a check of the bytes left.
 */
int coap_options_decode(const uint8_t *buf, size_t len, struct coap_option *opts, size_t max,
			size_t *payload_offset)
{
	unsigned long number = 0;
	size_t stored = 0;

	if (len == 0) {
		*payload_offset = 0;
		return 0;
	}

	const uint8_t *p = buf;
	const uint8_t *const end = buf + len;

	while (p != end) {
		unsigned long vals[2];
		unsigned int nibs[2];

		if (*p == COAP_PAYLOAD_MARKER) {
			p++;
			if (p == end)
				return COAP_ERR_FORMAT;     /* nothing after the marker */
			*payload_offset = (size_t)(p - buf);
			return (int)stored;
		}

		nibs[0] = *p >> 4;
		nibs[1] = *p & 0x0F;
		if (nibs[0] == 15 || nibs[1] == 15)
			return COAP_ERR_FORMAT;
		p++;

		for (int f = 0; f < 2; f++) {
			switch (nibs[f]) {
			case 13:
				if (end - p < 1)
					return COAP_ERR_FORMAT;
				vals[f] = 13ul + p[0];
				p += 1;
				break;
			case 14:
				if (end - p < 2)
					return COAP_ERR_FORMAT;
				vals[f] = 269ul + ((unsigned long)p[0] << 8 | p[1]);
				p += 2;
				break;
			default:
				vals[f] = nibs[f];
				break;
			}
		}

		if ((unsigned long)(end - p) < vals[1])
			return COAP_ERR_FORMAT;

		number += vals[0];
		if (number > UINT16_MAX)
			return COAP_ERR_NUMBER;

		if (stored == max)
			return COAP_ERR_TOO_MANY;

		opts[stored].number = (uint16_t)number;
		opts[stored].length = (uint16_t)vals[1];
		opts[stored].value = p;
		stored++;
		p += vals[1];
	}

	*payload_offset = len;
	return (int)stored;
}
