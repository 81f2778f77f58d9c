/* defect: a payload marker that is the last byte of buf is accepted (payload_offset set to len) instead of being rejected
 * breaks: "A payload marker that is the last byte of `buf` (an empty payload after it) is `COAP_ERR_FORMAT`."
 * must_fail: scenario_decode_reserved_nibble
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coap_opt.h"

enum {
	NIB_EXT1 = 13,
	NIB_EXT2 = 14,
	NIB_RSVD = 15,
};

struct field {
	uint8_t nibble;
	uint8_t n_ext;
	uint8_t ext[2];
};

static struct field make_field(uint32_t v)
{
	struct field f = { 0, 0, { 0, 0 } };

	if (v <= 12) {
		f.nibble = (uint8_t)v;
	} else if (v <= 268) {
		f.nibble = NIB_EXT1;
		f.n_ext = 1;
		f.ext[0] = (uint8_t)(v - 13);
	} else {
		f.nibble = NIB_EXT2;
		f.n_ext = 2;
		f.ext[0] = (uint8_t)((v - 269) >> 8);
		f.ext[1] = (uint8_t)((v - 269) & 0xFF);
	}
	return f;
}

int coap_options_encode(const struct coap_option *opts, size_t count, uint8_t *buf, size_t size)
{
	size_t off = 0;

	for (size_t i = 1; i < count; i++)
		if (opts[i].number < opts[i - 1].number)
			return COAP_ERR_ORDER;

	for (size_t i = 0; i < count; i++) {
		uint32_t prev = i ? opts[i - 1].number : 0;
		struct field d = make_field((uint32_t)opts[i].number - prev);
		struct field l = make_field(opts[i].length);
		size_t need = 1u + d.n_ext + l.n_ext + opts[i].length;

		if (size - off < need)
			return COAP_ERR_NOSPACE;

		buf[off++] = (uint8_t)((d.nibble << 4) | l.nibble);
		for (unsigned k = 0; k < d.n_ext; k++)
			buf[off++] = d.ext[k];
		for (unsigned k = 0; k < l.n_ext; k++)
			buf[off++] = l.ext[k];
		if (opts[i].length > 0) {
			memcpy(&buf[off], opts[i].value, opts[i].length);
			off += opts[i].length;
		}
	}
	return (int)off;
}

int coap_options_decode(const uint8_t *buf, size_t len, struct coap_option *opts, size_t max,
			size_t *payload_offset)
{
	size_t i = 0;
	size_t found = 0;
	uint32_t num = 0;

	while (i < len && buf[i] != COAP_PAYLOAD_MARKER) {
		uint32_t nib[2] = { (uint32_t)buf[i] >> 4, (uint32_t)buf[i] & 0xFu };
		uint32_t v[2];

		if (nib[0] == NIB_RSVD || nib[1] == NIB_RSVD)
			return COAP_ERR_FORMAT;
		i++;

		for (int k = 0; k < 2; k++) {
			if (nib[k] == NIB_EXT1) {
				if (len - i < 1)
					return COAP_ERR_FORMAT;
				v[k] = 13u + buf[i];
				i += 1;
			} else if (nib[k] == NIB_EXT2) {
				if (len - i < 2)
					return COAP_ERR_FORMAT;
				v[k] = 269u + ((uint32_t)buf[i] << 8 | buf[i + 1]);
				i += 2;
			} else {
				v[k] = nib[k];
			}
		}
		if (v[1] > len - i)
			return COAP_ERR_FORMAT;

		num += v[0];
		if (num > 65535u)
			return COAP_ERR_NUMBER;
		if (found == max)
			return COAP_ERR_TOO_MANY;

		opts[found].number = (uint16_t)num;
		opts[found].length = (uint16_t)v[1];
		opts[found].value = &buf[i];
		found++;
		i += v[1];
	}

	*payload_offset = (i < len) ? i + 1 : len;
	return (int)found;
}
