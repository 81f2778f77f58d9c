/* defect: option order is checked inside the encoding loop, so a buffer too small for the options before the out-of-order one returns COAP_ERR_NOSPACE instead of COAP_ERR_ORDER
 * breaks: "If any number is smaller than the one before it, return `COAP_ERR_ORDER`; this is checked before anything else, whatever `size` is."
 * must_fail: scenario_encode_order_checked
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coap_opt.h"

/* Splits v into its nibble and extended bytes; returns the extended byte count. */
static size_t split_field(uint32_t v, uint8_t *nibble, uint8_t ext[2])
{
	if (v < 13u) {
		*nibble = (uint8_t)v;
		return 0;
	}
	if (v < 269u) {
		*nibble = 13;
		ext[0] = (uint8_t)(v - 13u);
		return 1;
	}
	*nibble = 14;
	ext[0] = (uint8_t)((v - 269u) >> 8);
	ext[1] = (uint8_t)((v - 269u) & 0xFFu);
	return 2;
}

int coap_options_encode(const struct coap_option *opts, size_t count, uint8_t *buf, size_t size)
{
	size_t pos = 0;
	uint16_t prev = 0;

	for (size_t i = 0; i < count; i++) {
		const struct coap_option *o = &opts[i];
		uint8_t dn, ln, dext[2], lext[2];
		size_t dcnt, lcnt, need;

		if (o->number < prev)
			return COAP_ERR_ORDER;

		dcnt = split_field((uint32_t)(o->number - prev), &dn, dext);
		lcnt = split_field(o->length, &ln, lext);
		need = 1 + dcnt + lcnt + o->length;
		if (need > size - pos)
			return COAP_ERR_NOSPACE;

		buf[pos++] = (uint8_t)((dn << 4) | ln);
		memcpy(&buf[pos], dext, dcnt);
		pos += dcnt;
		memcpy(&buf[pos], lext, lcnt);
		pos += lcnt;
		if (o->length)
			memcpy(&buf[pos], o->value, o->length);
		pos += o->length;
		prev = o->number;
	}
	return (int)pos;
}

/* Reads a delta or length field whose nibble is nib (not 15). */
static int read_field(const uint8_t *buf, size_t len, size_t *pos, uint8_t nib, uint32_t *v)
{
	if (nib == 13) {
		if (len - *pos < 1)
			return COAP_ERR_FORMAT;
		*v = 13u + buf[*pos];
		*pos += 1;
	} else if (nib == 14) {
		if (len - *pos < 2)
			return COAP_ERR_FORMAT;
		*v = 269u + (((uint32_t)buf[*pos] << 8) | buf[*pos + 1]);
		*pos += 2;
	} else {
		*v = nib;
	}
	return 0;
}

int coap_options_decode(const uint8_t *buf, size_t len, struct coap_option *opts, size_t max,
			size_t *payload_offset)
{
	size_t pos = 0;
	size_t count = 0;
	uint32_t number = 0;

	for (;;) {
		uint32_t delta, length;
		uint8_t b;
		int err;

		if (pos == len) {
			*payload_offset = len;
			return (int)count;
		}
		b = buf[pos];
		if (b == COAP_PAYLOAD_MARKER) {
			if (pos + 1 == len)
				return COAP_ERR_FORMAT;
			*payload_offset = pos + 1;
			return (int)count;
		}
		if ((b >> 4) == 15 || (b & 0x0F) == 15)
			return COAP_ERR_FORMAT;
		pos++;

		err = read_field(buf, len, &pos, (uint8_t)(b >> 4), &delta);
		if (err)
			return err;
		err = read_field(buf, len, &pos, (uint8_t)(b & 0x0F), &length);
		if (err)
			return err;
		if (length > len - pos)
			return COAP_ERR_FORMAT;

		number += delta;
		if (number > 0xFFFFu)
			return COAP_ERR_NUMBER;
		if (count == max)
			return COAP_ERR_TOO_MANY;

		opts[count].number = (uint16_t)number;
		opts[count].length = (uint16_t)length;
		opts[count].value = buf + pos;
		count++;
		pos += length;
	}
}
