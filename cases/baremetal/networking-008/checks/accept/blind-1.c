/*
 * main.c - CoAP (RFC 7252, section 3.1) option encoding and decoding for
 * the MX-2 metering node's CoAP client.
 */
#include <stddef.h>
#include <stdint.h>

#include "coap_opt.h"

#define NIBBLE_EXT8       13u    /* one extended byte follows */
#define NIBBLE_EXT16      14u    /* two extended bytes follow */
#define NIBBLE_RESERVED   15u

#define EXT8_BASE         13u
#define EXT16_BASE        269u
#define EXT8_MAX          (EXT16_BASE - 1u)          /* 268 */

#define OPTION_NUMBER_MAX 65535u

/* Number of extended bytes needed to write a delta or length value. */
static size_t ext_len(uint32_t v)
{
	if (v < EXT8_BASE)
		return 0;
	if (v <= EXT8_MAX)
		return 1;
	return 2;
}

/* Nibble for a delta or length value. */
static uint8_t ext_nibble(uint32_t v)
{
	if (v < EXT8_BASE)
		return (uint8_t)v;
	if (v <= EXT8_MAX)
		return NIBBLE_EXT8;
	return NIBBLE_EXT16;
}

/* Write the extended bytes of v at p (ext_len(v) bytes); returns the count. */
static size_t put_ext(uint8_t *p, uint32_t v)
{
	if (v < EXT8_BASE)
		return 0;
	if (v <= EXT8_MAX) {
		p[0] = (uint8_t)(v - EXT8_BASE);
		return 1;
	}
	v -= EXT16_BASE;
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)(v & 0xFFu);
	return 2;
}

int coap_options_encode(const struct coap_option *opts, size_t count, uint8_t *buf, size_t size)
{
	size_t i;
	size_t need = 0;
	size_t pos = 0;
	uint32_t prev;

	if (count == 0)
		return 0;

	/* 1. Ordering, before anything else. */
	for (i = 1; i < count; i++) {
		if (opts[i].number < opts[i - 1].number)
			return COAP_ERR_ORDER;
	}

	/* 2. Total size. */
	prev = 0;
	for (i = 0; i < count; i++) {
		uint32_t delta = (uint32_t)opts[i].number - prev;
		uint32_t length = opts[i].length;

		need += 1u + ext_len(delta) + ext_len(length) + length;
		prev = opts[i].number;
	}
	if (need > size)
		return COAP_ERR_NOSPACE;

	/* 3. Write; everything is known to fit. */
	prev = 0;
	for (i = 0; i < count; i++) {
		uint32_t delta = (uint32_t)opts[i].number - prev;
		uint32_t length = opts[i].length;
		uint32_t k;

		buf[pos++] = (uint8_t)((ext_nibble(delta) << 4) | ext_nibble(length));
		pos += put_ext(&buf[pos], delta);
		pos += put_ext(&buf[pos], length);
		for (k = 0; k < length; k++)
			buf[pos++] = opts[i].value[k];
		prev = opts[i].number;
	}

	return (int)pos;
}

/*
 * Resolve a delta or length nibble at buf[*pos..] into its value, reading
 * the extended bytes if any. Returns 0, or COAP_ERR_FORMAT when an
 * extended byte lies at or past len. The nibble is known not to be 15.
 */
static int get_ext(const uint8_t *buf, size_t len, size_t *pos, uint32_t nibble, uint32_t *out)
{
	size_t p = *pos;

	if (nibble < NIBBLE_EXT8) {
		*out = nibble;
	} else if (nibble == NIBBLE_EXT8) {
		if (p >= len)
			return COAP_ERR_FORMAT;
		*out = (uint32_t)buf[p] + EXT8_BASE;
		p += 1;
	} else {
		if (len - p < 2)
			return COAP_ERR_FORMAT;
		*out = (((uint32_t)buf[p] << 8) | buf[p + 1]) + EXT16_BASE;
		p += 2;
	}
	*pos = p;
	return 0;
}

int coap_options_decode(const uint8_t *buf, size_t len, struct coap_option *opts, size_t max,
			size_t *payload_offset)
{
	size_t pos = 0;
	size_t n = 0;
	uint32_t number = 0;

	while (pos < len) {
		uint8_t hdr = buf[pos];
		uint32_t dnib = (uint32_t)hdr >> 4;
		uint32_t lnib = (uint32_t)hdr & 0x0Fu;
		uint32_t delta, length;
		int rc;

		if (hdr == COAP_PAYLOAD_MARKER) {
			if (pos + 1 >= len)
				return COAP_ERR_FORMAT;   /* marker with empty payload */
			*payload_offset = pos + 1;
			return (int)n;
		}

		/* Rule 1: reserved nibbles. */
		if (dnib == NIBBLE_RESERVED || lnib == NIBBLE_RESERVED)
			return COAP_ERR_FORMAT;
		pos++;

		/* Rule 2: extended bytes and value bytes inside the buffer. */
		rc = get_ext(buf, len, &pos, dnib, &delta);
		if (rc != 0)
			return rc;
		rc = get_ext(buf, len, &pos, lnib, &length);
		if (rc != 0)
			return rc;
		if (length > len - pos)
			return COAP_ERR_FORMAT;

		/* Rule 3: option number range. */
		number += delta;
		if (number > OPTION_NUMBER_MAX)
			return COAP_ERR_NUMBER;

		/* Rule 4: room in opts[]. */
		if (n >= max)
			return COAP_ERR_TOO_MANY;

		opts[n].number = (uint16_t)number;
		opts[n].length = (uint16_t)length;
		opts[n].value = &buf[pos];
		n++;
		pos += length;
	}

	*payload_offset = len;
	return (int)n;
}
