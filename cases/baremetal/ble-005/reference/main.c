/*
 * Advertising-data parser of the HG-7 scanner gateway.
 */
#include <string.h>
#include "adv_parse.h"

static void report_clear(struct adv_report *out)
{
	memset(out, 0, sizeof *out);
}

static void take_name(struct adv_report *out, uint8_t kind, const uint8_t *d, size_t n)
{
	size_t keep = n > ADV_NAME_MAX ? ADV_NAME_MAX : n;

	memcpy(out->name, d, keep);
	out->name[keep] = '\0';
	out->name_len = (uint8_t)keep;
	out->name_truncated = n > ADV_NAME_MAX;
	out->name_kind = kind;
}

static int take_uuids(struct adv_report *out, const uint8_t *d, size_t n)
{
	if (n % 2u != 0u) {
		return ADV_ERR_MALFORMED;
	}
	for (size_t k = 0; k < n; k += 2u) {
		if (out->uuid_count < ADV_UUID_MAX) {
			out->uuids[out->uuid_count++] = (uint16_t)(d[k] | (d[k + 1u] << 8));
		} else {
			out->uuid_dropped = true;
		}
	}
	return ADV_OK;
}

static int parse(const uint8_t *data, size_t len, struct adv_report *out)
{
	size_t pos = 0;

	while (pos < len) {
		size_t l = data[pos];

		if (l == 0u) {
			break;		/* end of the significant part */
		}
		if (l > len - pos - 1u) {
			return ADV_ERR_MALFORMED;
		}
		uint8_t type = data[pos + 1u];
		const uint8_t *d = &data[pos + 2u];
		size_t n = l - 1u;

		switch (type) {
		case AD_TYPE_FLAGS:
			if (n >= 1u && !out->has_flags) {
				out->has_flags = true;
				out->flags = d[0];
			}
			break;
		case AD_TYPE_NAME_COMPLETE:
			if (out->name_kind != ADV_NAME_COMPLETE) {
				take_name(out, ADV_NAME_COMPLETE, d, n);
			}
			break;
		case AD_TYPE_NAME_SHORT:
			if (out->name_kind == ADV_NAME_NONE) {
				take_name(out, ADV_NAME_SHORT, d, n);
			}
			break;
		case AD_TYPE_UUID16_COMPLETE:
			out->uuid_list_complete = true;
			/* fall through */
		case AD_TYPE_UUID16_INCOMPLETE:
			if (take_uuids(out, d, n) != ADV_OK) {
				return ADV_ERR_MALFORMED;
			}
			break;
		case AD_TYPE_MANUFACTURER:
			if (n >= 2u && !out->has_mfr) {
				size_t keep = n - 2u;

				if (keep > ADV_MFR_DATA_MAX) {
					keep = ADV_MFR_DATA_MAX;
				}
				out->has_mfr = true;
				out->company_id = (uint16_t)(d[0] | (d[1] << 8));
				memcpy(out->mfr_data, &d[2], keep);
				out->mfr_len = (uint8_t)keep;
			}
			break;
		default:
			break;		/* not reported: skipped */
		}
		pos += 1u + l;
	}
	return ADV_OK;
}

int adv_parse(const uint8_t *data, size_t len, struct adv_report *out)
{
	int rc;

	report_clear(out);
	if (len > ADV_PAYLOAD_MAX) {
		return ADV_ERR_TOO_LONG;
	}
	rc = parse(data, len, out);
	if (rc != ADV_OK) {
		report_clear(out);
	}
	return rc;
}
