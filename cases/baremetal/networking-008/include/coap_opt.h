/*
 * coap_opt.h - CoAP (RFC 7252) option encoding and decoding for the
 * MX-2 metering node's CoAP client.
 *
 * The message layer writes and reads the header and the token; these two
 * functions handle the options that follow the token.
 */
#ifndef COAP_OPT_H
#define COAP_OPT_H

#include <stddef.h>
#include <stdint.h>

#define COAP_PAYLOAD_MARKER 0xFF

struct coap_option {
	uint16_t       number;   /* option number, e.g. 11 Uri-Path */
	uint16_t       length;   /* value length in bytes */
	const uint8_t *value;    /* the length value bytes (may be NULL when length is 0) */
};

/* Errors (negative return values). */
#define COAP_ERR_ORDER     (-1)  /* encode: option numbers not in ascending order */
#define COAP_ERR_NOSPACE   (-2)  /* encode: the options do not fit in size bytes */
#define COAP_ERR_FORMAT    (-3)  /* decode: reserved nibble, bytes missing, empty payload */
#define COAP_ERR_NUMBER    (-4)  /* decode: an option number above 65535 */
#define COAP_ERR_TOO_MANY  (-5)  /* decode: more than max options */

/*
 * Encode opts[0..count-1] into buf[0..size-1]. Returns the number of bytes
 * written (0 for count 0) or COAP_ERR_ORDER / COAP_ERR_NOSPACE.
 */
int coap_options_encode(const struct coap_option *opts, size_t count, uint8_t *buf, size_t size);

/*
 * Decode the options at buf[0..len-1] into opts[0..max-1]. Returns the
 * number of options decoded, and sets *payload_offset, or returns
 * COAP_ERR_FORMAT / COAP_ERR_NUMBER / COAP_ERR_TOO_MANY.
 */
int coap_options_decode(const uint8_t *buf, size_t len, struct coap_option *opts, size_t max,
			size_t *payload_offset);

#endif /* COAP_OPT_H */
