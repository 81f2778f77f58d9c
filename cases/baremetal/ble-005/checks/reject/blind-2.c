/* defect: the report is filled in *out while walking the payload, and the malformed returns leave the structures already parsed in it.
 * breaks: "On an error (`ADV_ERR_TOO_LONG` or `ADV_ERR_MALFORMED`) nothing of the payload is reported, not even the structures found before the bad one: `*out` holds the empty report."
 * must_fail: scenario_structure_past_end_malformed, scenario_odd_uuid_list_malformed
 */
/*
 * HG-7 scanner gateway - legacy advertising payload parser.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "adv_parse.h"

#define AD_HDR_LEN     1u   /* the length byte */
#define AD_TYPE_LEN    1u   /* the AD type byte */
#define COMPANY_ID_LEN 2u
#define UUID16_LEN     2u

static uint16_t rd_le16(const uint8_t *b)
{
	return (uint16_t)((uint16_t)b[0] | ((uint16_t)b[1] << 8));
}

int adv_parse(const uint8_t *data, size_t len, struct adv_report *out)
{
	size_t i;

	memset(out, 0, sizeof *out);   /* empty report */

	if (len > ADV_PAYLOAD_MAX)
		return ADV_ERR_TOO_LONG;

	for (i = 0; i < len; ) {
		size_t l = data[i];
		size_t remaining = len - i - AD_HDR_LEN;
		const uint8_t *body;
		size_t size;
		uint8_t type;

		if (l == 0u)
			break;
		if (l > remaining)
			return ADV_ERR_MALFORMED;

		type = data[i + AD_HDR_LEN];
		body = &data[i + AD_HDR_LEN + AD_TYPE_LEN];
		size = l - AD_TYPE_LEN;

		if (type == AD_TYPE_FLAGS) {
			if (!out->has_flags && size >= 1u) {
				out->has_flags = true;
				out->flags = body[0];
			}
		} else if (type == AD_TYPE_NAME_SHORT || type == AD_TYPE_NAME_COMPLETE) {
			uint8_t kind = (type == AD_TYPE_NAME_COMPLETE) ?
				       ADV_NAME_COMPLETE : ADV_NAME_SHORT;

			if (out->name_kind < kind) {
				size_t keep = size > ADV_NAME_MAX ? ADV_NAME_MAX : size;

				memset(out->name, 0, sizeof out->name);
				if (keep)
					memcpy(out->name, body, keep);
				out->name_len = (uint8_t)keep;
				out->name_truncated = size > ADV_NAME_MAX;
				out->name_kind = kind;
			}
		} else if (type == AD_TYPE_UUID16_INCOMPLETE ||
			   type == AD_TYPE_UUID16_COMPLETE) {
			if (size % UUID16_LEN)
				return ADV_ERR_MALFORMED;
			if (type == AD_TYPE_UUID16_COMPLETE)
				out->uuid_list_complete = true;
			for (size_t k = 0; k < size; k += UUID16_LEN) {
				if (out->uuid_count >= ADV_UUID_MAX) {
					out->uuid_dropped = true;
					break;
				}
				out->uuids[out->uuid_count++] = rd_le16(body + k);
			}
		} else if (type == AD_TYPE_MANUFACTURER) {
			if (!out->has_mfr && size >= COMPANY_ID_LEN) {
				size_t n = size - COMPANY_ID_LEN;

				if (n > ADV_MFR_DATA_MAX)
					n = ADV_MFR_DATA_MAX;
				out->has_mfr = true;
				out->company_id = rd_le16(body);
				if (n)
					memcpy(out->mfr_data, body + COMPANY_ID_LEN, n);
				out->mfr_len = (uint8_t)n;
			}
		}
		/* any other AD type is skipped */

		i += AD_HDR_LEN + l;
	}

	return ADV_OK;
}
