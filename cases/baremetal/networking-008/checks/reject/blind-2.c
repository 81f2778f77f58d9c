/* defect: the running option number is kept in a uint16_t and only each delta is range-checked, so a sum of deltas above 65535 across options wraps silently instead of failing
 * breaks: "3. an option number above 65535: `COAP_ERR_NUMBER`;"
 * must_fail: scenario_decode_number_overflow
 */
#include <stddef.h>
#include <stdint.h>

#include "coap_opt.h"

#define EXT1_OFFSET 13u
#define EXT2_OFFSET 269u

static size_t field_ext_bytes(unsigned int v)
{
	return v < EXT1_OFFSET ? 0 : v < EXT2_OFFSET ? 1 : 2;
}

static unsigned int field_nibble(unsigned int v)
{
	return v < EXT1_OFFSET ? v : v < EXT2_OFFSET ? 13u : 14u;
}

static uint8_t *field_put(uint8_t *p, unsigned int v)
{
	if (v >= EXT2_OFFSET) {
		*p++ = (uint8_t)((v - EXT2_OFFSET) >> 8);
		*p++ = (uint8_t)(v - EXT2_OFFSET);
	} else if (v >= EXT1_OFFSET) {
		*p++ = (uint8_t)(v - EXT1_OFFSET);
	}
	return p;
}

int coap_options_encode(const struct coap_option *opts, size_t count, uint8_t *buf, size_t size)
{
	size_t total = 0;
	unsigned int prev = 0;
	uint8_t *p = buf;

	for (size_t i = 1; i < count; i++) {
		if (opts[i].number < opts[i - 1].number)
			return COAP_ERR_ORDER;
	}

	for (size_t i = 0; i < count; i++) {
		unsigned int d = opts[i].number - prev;

		total += 1 + field_ext_bytes(d) + field_ext_bytes(opts[i].length) + opts[i].length;
		prev = opts[i].number;
	}
	if (total > size)
		return COAP_ERR_NOSPACE;

	prev = 0;
	for (size_t i = 0; i < count; i++) {
		unsigned int d = opts[i].number - prev;
		unsigned int l = opts[i].length;

		*p++ = (uint8_t)(field_nibble(d) << 4 | field_nibble(l));
		p = field_put(p, d);
		p = field_put(p, l);
		for (unsigned int k = 0; k < l; k++)
			*p++ = opts[i].value[k];
		prev = opts[i].number;
	}
	return (int)total;
}

/* Decodes one field; returns -1 if its extended bytes run past len. */
static long field_get(const uint8_t *buf, size_t len, size_t *pos, unsigned int nib)
{
	long v;

	if (nib < 13)
		return (long)nib;
	if (nib == 13) {
		if (*pos >= len)
			return -1;
		v = (long)EXT1_OFFSET + buf[*pos];
		*pos += 1;
		return v;
	}
	if (len - *pos < 2)
		return -1;
	v = (long)EXT2_OFFSET + ((long)buf[*pos] << 8) + buf[*pos + 1];
	*pos += 2;
	return v;
}

int coap_options_decode(const uint8_t *buf, size_t len, struct coap_option *opts, size_t max,
			size_t *payload_offset)
{
	size_t pos = 0;
	size_t n = 0;
	uint16_t number = 0;

	while (pos < len) {
		unsigned int hdr = buf[pos];
		long delta, length;

		if (hdr == COAP_PAYLOAD_MARKER) {
			if (len - pos == 1)
				return COAP_ERR_FORMAT;
			*payload_offset = pos + 1;
			return (int)n;
		}
		if ((hdr & 0xF0u) == 0xF0u || (hdr & 0x0Fu) == 0x0Fu)
			return COAP_ERR_FORMAT;
		pos++;

		delta = field_get(buf, len, &pos, hdr >> 4);
		if (delta < 0)
			return COAP_ERR_FORMAT;
		length = field_get(buf, len, &pos, hdr & 0x0Fu);
		if (length < 0)
			return COAP_ERR_FORMAT;
		if ((size_t)length > len - pos)
			return COAP_ERR_FORMAT;

		if (delta > 0xFFFF)
			return COAP_ERR_NUMBER;
		number = (uint16_t)(number + delta);

		if (n >= max)
			return COAP_ERR_TOO_MANY;
		opts[n].number = number;
		opts[n].length = (uint16_t)length;
		opts[n].value = buf + pos;
		n++;
		pos += (size_t)length;
	}

	*payload_offset = len;
	return (int)n;
}
