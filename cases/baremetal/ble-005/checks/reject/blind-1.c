/* defect: the bounds check compares pos + L with len instead of pos + 1 + L, so a structure one byte too long is accepted and its last byte is read past the end.
 * breaks: "A structure whose `L` bytes run past the end of the payload (`L` is not 0 and is larger than the number of bytes after its length byte) makes the whole payload invalid: return `ADV_ERR_MALFORMED`."
 * must_fail: scenario_structure_past_end_malformed
 */
/*
 * main.c - advertising-data parser of the HG-7 scanner gateway.
 *
 * The report is built in a local copy and only copied to *out once the
 * whole payload has been accepted.
 */
#include <string.h>

#include "adv_parse.h"

static uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static void copy_name(struct adv_report *r, uint8_t kind,
		      const uint8_t *p, size_t n)
{
	size_t keep = (n > ADV_NAME_MAX) ? ADV_NAME_MAX : n;

	memset(r->name, 0, sizeof(r->name));
	memcpy(r->name, p, keep);
	r->name_len = (uint8_t)keep;
	r->name_truncated = (n > ADV_NAME_MAX);
	r->name_kind = kind;
}

int adv_parse(const uint8_t *data, size_t len, struct adv_report *out)
{
	struct adv_report rep;
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	if (len > ADV_PAYLOAD_MAX)
		return ADV_ERR_TOO_LONG;

	memset(&rep, 0, sizeof(rep));

	while (pos < len) {
		size_t ad_len = data[pos];

		if (ad_len == 0)
			break;
		if (pos + ad_len > len)
			return ADV_ERR_MALFORMED;

		uint8_t type = data[pos + 1];
		const uint8_t *ad = &data[pos + 2];
		size_t n = ad_len - 1;

		switch (type) {
		case AD_TYPE_FLAGS:
			if (!rep.has_flags && n > 0) {
				rep.has_flags = true;
				rep.flags = ad[0];
			}
			break;

		case AD_TYPE_NAME_SHORT:
			if (rep.name_kind == ADV_NAME_NONE)
				copy_name(&rep, ADV_NAME_SHORT, ad, n);
			break;

		case AD_TYPE_NAME_COMPLETE:
			if (rep.name_kind != ADV_NAME_COMPLETE)
				copy_name(&rep, ADV_NAME_COMPLETE, ad, n);
			break;

		case AD_TYPE_UUID16_INCOMPLETE:
		case AD_TYPE_UUID16_COMPLETE:
			if (n & 1u)
				return ADV_ERR_MALFORMED;
			if (type == AD_TYPE_UUID16_COMPLETE)
				rep.uuid_list_complete = true;
			for (size_t i = 0; i + 1 < n; i += 2) {
				if (rep.uuid_count < ADV_UUID_MAX)
					rep.uuids[rep.uuid_count++] = get_le16(&ad[i]);
				else
					rep.uuid_dropped = true;
			}
			break;

		case AD_TYPE_MANUFACTURER:
			if (!rep.has_mfr && n >= 2) {
				size_t m = n - 2;

				if (m > ADV_MFR_DATA_MAX)
					m = ADV_MFR_DATA_MAX;
				rep.has_mfr = true;
				rep.company_id = get_le16(ad);
				memcpy(rep.mfr_data, ad + 2, m);
				rep.mfr_len = (uint8_t)m;
			}
			break;

		default:
			break;
		}

		pos += ad_len + 1;
	}

	*out = rep;
	return ADV_OK;
}
