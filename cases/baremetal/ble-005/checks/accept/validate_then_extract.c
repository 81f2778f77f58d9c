/*
 * HG-7 gateway: advertising payload parser, written as two passes.
 * Pass one checks the framing of the whole significant part; only a payload
 * that passes it is read for fields in pass two.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "adv_parse.h"

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] | ((uint16_t)p[1] << 8));
}

static void empty_report(struct adv_report *r)
{
	unsigned i;

	r->has_flags = false;
	r->flags = 0;
	r->name_kind = ADV_NAME_NONE;
	r->name_len = 0;
	r->name_truncated = false;
	for (i = 0; i <= ADV_NAME_MAX; i++)
		r->name[i] = '\0';
	r->uuid_count = 0;
	r->uuid_list_complete = false;
	r->uuid_dropped = false;
	for (i = 0; i < ADV_UUID_MAX; i++)
		r->uuids[i] = 0;
	r->has_mfr = false;
	r->company_id = 0;
	r->mfr_len = 0;
	for (i = 0; i < ADV_MFR_DATA_MAX; i++)
		r->mfr_data[i] = 0;
}

/* Returns the number of significant bytes, or -1 when the framing is bad. */
static int framing_ok(const uint8_t *p, unsigned n)
{
	unsigned at = 0;

	while (at < n && p[at] != 0) {
		unsigned body = p[at];
		unsigned type;

		if (at + 1 + body > n)
			return -1;
		type = p[at + 1];
		if ((type == AD_TYPE_UUID16_COMPLETE || type == AD_TYPE_UUID16_INCOMPLETE) && ((body - 1) & 1u))
			return -1;
		at += 1 + body;
	}
	return (int)at;
}

int adv_parse(const uint8_t *data, size_t len, struct adv_report *out)
{
	int end;
	unsigned at;

	empty_report(out);
	if (len > ADV_PAYLOAD_MAX)
		return ADV_ERR_TOO_LONG;
	end = framing_ok(data, (unsigned)len);
	if (end < 0)
		return ADV_ERR_MALFORMED;

	for (at = 0; at < (unsigned)end; at += 1u + data[at]) {
		const uint8_t type = data[at + 1];
		const uint8_t *v = data + at + 2;
		const unsigned vlen = data[at] - 1u;
		unsigned k;

		if (type == AD_TYPE_FLAGS) {
			if (vlen > 0 && !out->has_flags) {
				out->flags = v[0];
				out->has_flags = true;
			}
		} else if (type == AD_TYPE_NAME_COMPLETE || type == AD_TYPE_NAME_SHORT) {
			uint8_t kind = type == AD_TYPE_NAME_COMPLETE ? ADV_NAME_COMPLETE : ADV_NAME_SHORT;

			if (out->name_kind == ADV_NAME_NONE ||
			    (kind == ADV_NAME_COMPLETE && out->name_kind == ADV_NAME_SHORT)) {
				unsigned keep = vlen < ADV_NAME_MAX ? vlen : ADV_NAME_MAX;

				for (k = 0; k < keep; k++)
					out->name[k] = (char)v[k];
				out->name[keep] = '\0';
				out->name_len = (uint8_t)keep;
				out->name_truncated = vlen > ADV_NAME_MAX;
				out->name_kind = kind;
			}
		} else if (type == AD_TYPE_UUID16_COMPLETE || type == AD_TYPE_UUID16_INCOMPLETE) {
			if (type == AD_TYPE_UUID16_COMPLETE)
				out->uuid_list_complete = true;
			for (k = 0; k + 1 < vlen; k += 2) {
				if (out->uuid_count == ADV_UUID_MAX) {
					out->uuid_dropped = true;
					break;
				}
				out->uuids[out->uuid_count++] = le16(v + k);
			}
		} else if (type == AD_TYPE_MANUFACTURER) {
			if (vlen >= 2 && !out->has_mfr) {
				out->has_mfr = true;
				out->company_id = le16(v);
				for (k = 2; k < vlen && out->mfr_len < ADV_MFR_DATA_MAX; k++)
					out->mfr_data[out->mfr_len++] = v[k];
			}
		}
	}
	return ADV_OK;
}
