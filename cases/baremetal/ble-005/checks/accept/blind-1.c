/*
 * main.c - advertising-data parser of the HG-7 scanner gateway.
 *
 * adv_parse() walks the AD structures of a legacy advertising payload
 * and fills a struct adv_report. The report is built in a local copy and
 * only copied to *out once the whole payload has been accepted, so an
 * error always leaves the empty report in *out.
 */
#include <string.h>

#include "adv_parse.h"

static void report_clear(struct adv_report *r)
{
	memset(r, 0, sizeof(*r));
	r->has_flags = false;
	r->flags = 0;
	r->name_kind = ADV_NAME_NONE;
	r->name_len = 0;
	r->name_truncated = false;
	r->name[0] = '\0';
	r->uuid_count = 0;
	r->uuid_list_complete = false;
	r->uuid_dropped = false;
	r->has_mfr = false;
	r->company_id = 0;
	r->mfr_len = 0;
}

static void set_name(struct adv_report *r, uint8_t kind,
		     const uint8_t *p, size_t n)
{
	size_t keep = (n > ADV_NAME_MAX) ? ADV_NAME_MAX : n;

	memset(r->name, 0, sizeof(r->name));
	memcpy(r->name, p, keep);
	r->name[keep] = '\0';
	r->name_len = (uint8_t)keep;
	r->name_truncated = (n > ADV_NAME_MAX);
	r->name_kind = kind;
}

int adv_parse(const uint8_t *data, size_t len, struct adv_report *out)
{
	struct adv_report rep;
	size_t pos = 0;

	report_clear(out);
	if (len > ADV_PAYLOAD_MAX)
		return ADV_ERR_TOO_LONG;

	report_clear(&rep);

	while (pos < len) {
		size_t ad_len = data[pos];

		if (ad_len == 0)
			break;              /* end of the significant part */
		if (ad_len > len - pos - 1)
			return ADV_ERR_MALFORMED;   /* runs past the end */

		uint8_t type = data[pos + 1];
		const uint8_t *ad = &data[pos + 2];
		size_t n = ad_len - 1;      /* data bytes after the type */

		switch (type) {
		case AD_TYPE_FLAGS:
			if (!rep.has_flags && n >= 1) {
				rep.has_flags = true;
				rep.flags = ad[0];
			}
			break;

		case AD_TYPE_NAME_SHORT:
			if (rep.name_kind == ADV_NAME_NONE)
				set_name(&rep, ADV_NAME_SHORT, ad, n);
			break;

		case AD_TYPE_NAME_COMPLETE:
			if (rep.name_kind != ADV_NAME_COMPLETE)
				set_name(&rep, ADV_NAME_COMPLETE, ad, n);
			break;

		case AD_TYPE_UUID16_COMPLETE:
		case AD_TYPE_UUID16_INCOMPLETE:
			if (n % 2u != 0u)
				return ADV_ERR_MALFORMED;
			if (type == AD_TYPE_UUID16_COMPLETE)
				rep.uuid_list_complete = true;
			for (size_t i = 0; i < n; i += 2) {
				if (rep.uuid_count < ADV_UUID_MAX) {
					rep.uuids[rep.uuid_count++] =
						(uint16_t)(ad[i] | (ad[i + 1] << 8));
				} else {
					rep.uuid_dropped = true;
				}
			}
			break;

		case AD_TYPE_MANUFACTURER:
			if (!rep.has_mfr && n >= 2) {
				size_t m = n - 2;

				if (m > ADV_MFR_DATA_MAX)
					m = ADV_MFR_DATA_MAX;
				rep.has_mfr = true;
				rep.company_id = (uint16_t)(ad[0] | (ad[1] << 8));
				memcpy(rep.mfr_data, &ad[2], m);
				rep.mfr_len = (uint8_t)m;
			}
			break;

		default:
			break;              /* not reported: skip it */
		}

		pos += 1 + ad_len;
	}

	*out = rep;
	return ADV_OK;
}
