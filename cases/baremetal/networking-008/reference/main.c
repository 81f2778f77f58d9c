/*
 * CoAP option encoding and decoding (RFC 7252, section 3.1) for the MX-2
 * metering node.
 */
#include <string.h>
#include "coap_opt.h"

/* Nibble and number of extended bytes for a delta or a length. */
static unsigned ext_size(uint32_t v)
{
	return v < 13u ? 0u : (v < 269u ? 1u : 2u);
}

static uint8_t nibble(uint32_t v)
{
	return (uint8_t)(v < 13u ? v : (v < 269u ? 13u : 14u));
}

static uint8_t *put_ext(uint8_t *p, uint32_t v)
{
	if (v >= 269u) {
		uint32_t e = v - 269u;
		*p++ = (uint8_t)(e >> 8);
		*p++ = (uint8_t)e;
	} else if (v >= 13u) {
		*p++ = (uint8_t)(v - 13u);
	}
	return p;
}

int coap_options_encode(const struct coap_option *opts, size_t count, uint8_t *buf, size_t size)
{
	size_t need = 0;
	uint32_t prev = 0;

	for (size_t i = 0; i < count; i++) {
		if (i > 0 && opts[i].number < opts[i - 1].number) {
			return COAP_ERR_ORDER;
		}
	}
	for (size_t i = 0; i < count; i++) {
		uint32_t delta = (uint32_t)opts[i].number - prev;
		prev = opts[i].number;
		need += 1u + ext_size(delta) + ext_size(opts[i].length) + opts[i].length;
	}
	if (need > size) {
		return COAP_ERR_NOSPACE;
	}

	uint8_t *p = buf;
	prev = 0;
	for (size_t i = 0; i < count; i++) {
		uint32_t delta = (uint32_t)opts[i].number - prev;
		uint32_t length = opts[i].length;

		prev = opts[i].number;
		*p++ = (uint8_t)(nibble(delta) << 4 | nibble(length));
		p = put_ext(p, delta);
		p = put_ext(p, length);
		if (length > 0u) {
			memcpy(p, opts[i].value, length);
			p += length;
		}
	}
	return (int)(p - buf);
}

/* Reads the extended form of a nibble at buf[*pos]; -1 when bytes are missing. */
static int32_t get_ext(const uint8_t *buf, size_t len, size_t *pos, uint8_t nib)
{
	if (nib < 13u) {
		return nib;
	}
	if (nib == 13u) {
		if (*pos >= len) {
			return -1;
		}
		return (int32_t)buf[(*pos)++] + 13;
	}
	if (len - *pos < 2u) {
		return -1;
	}
	int32_t v = ((int32_t)buf[*pos] << 8 | buf[*pos + 1u]) + 269;
	*pos += 2u;
	return v;
}

int coap_options_decode(const uint8_t *buf, size_t len, struct coap_option *opts, size_t max,
			size_t *payload_offset)
{
	size_t pos = 0;
	size_t n = 0;
	uint32_t number = 0;

	while (pos < len) {
		uint8_t head = buf[pos++];

		if (head == COAP_PAYLOAD_MARKER) {
			if (pos == len) {
				return COAP_ERR_FORMAT;		/* marker without payload */
			}
			*payload_offset = pos;
			return (int)n;
		}
		uint8_t dn = head >> 4, ln = head & 0x0Fu;
		if (dn == 15u || ln == 15u) {
			return COAP_ERR_FORMAT;
		}
		int32_t delta = get_ext(buf, len, &pos, dn);
		if (delta < 0) {
			return COAP_ERR_FORMAT;
		}
		int32_t length = get_ext(buf, len, &pos, ln);
		if (length < 0 || (size_t)length > len - pos) {
			return COAP_ERR_FORMAT;
		}
		number += (uint32_t)delta;
		if (number > 65535u) {
			return COAP_ERR_NUMBER;
		}
		if (n == max) {
			return COAP_ERR_TOO_MANY;
		}
		opts[n].number = (uint16_t)number;
		opts[n].length = (uint16_t)length;
		opts[n].value = &buf[pos];
		n++;
		pos += (size_t)length;
	}
	*payload_offset = len;
	return (int)n;
}
