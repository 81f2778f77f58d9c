/* defect: the first local name of either kind is kept, so a Complete Local Name that follows a Shortened one does not replace it.
 * breaks: "When Flags, a local name or Manufacturer Specific Data appear in several structures, the **first** one that is not ignored counts, with one exception: a Complete Local Name replaces a Shortened Local Name found before it (the Complete name is reported whatever the order of the two)."
 * must_fail: scenario_name_kind_and_truncation
 */
/*
 * HG-7 scanner gateway - legacy advertising payload parser.
 *
 * First pass validates the payload, second pass extracts the report.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "adv_parse.h"

struct ad_item {
	uint8_t        type;
	const uint8_t *body;
	size_t         size;
};

struct ad_cursor {
	const uint8_t *p;
	const uint8_t *end;
};

enum ad_step { AD_STEP_ITEM, AD_STEP_END, AD_STEP_BAD };

static enum ad_step ad_next(struct ad_cursor *c, struct ad_item *it)
{
	size_t avail, l;

	if (c->p >= c->end)
		return AD_STEP_END;

	l = *c->p;
	if (l == 0u)
		return AD_STEP_END;

	avail = (size_t)(c->end - c->p) - 1u;
	if (l > avail)
		return AD_STEP_BAD;

	it->type = c->p[1];
	it->body = c->p + 2;
	it->size = l - 1u;
	c->p += 1u + l;
	return AD_STEP_ITEM;
}

static uint16_t le16(const uint8_t *b)
{
	return (uint16_t)((uint16_t)b[0] | ((uint16_t)b[1] << 8));
}

static bool payload_valid(const uint8_t *data, size_t len)
{
	struct ad_cursor c = { data, data + len };
	struct ad_item it;
	enum ad_step s;

	while ((s = ad_next(&c, &it)) == AD_STEP_ITEM) {
		if ((it.type == AD_TYPE_UUID16_INCOMPLETE ||
		     it.type == AD_TYPE_UUID16_COMPLETE) && (it.size & 1u))
			return false;
	}
	return s == AD_STEP_END;
}

int adv_parse(const uint8_t *data, size_t len, struct adv_report *out)
{
	struct ad_cursor c;
	struct ad_item it;

	memset(out, 0, sizeof *out);

	if (len > ADV_PAYLOAD_MAX)
		return ADV_ERR_TOO_LONG;
	if (!payload_valid(data, len))
		return ADV_ERR_MALFORMED;

	c.p = data;
	c.end = data + len;
	while (ad_next(&c, &it) == AD_STEP_ITEM) {
		switch (it.type) {
		case AD_TYPE_FLAGS:
			if (!out->has_flags && it.size >= 1u) {
				out->has_flags = true;
				out->flags = it.body[0];
			}
			break;

		case AD_TYPE_NAME_SHORT:
		case AD_TYPE_NAME_COMPLETE:
			if (out->name_kind == ADV_NAME_NONE) {
				size_t keep = it.size < ADV_NAME_MAX ? it.size : ADV_NAME_MAX;

				if (keep != 0u)
					memcpy(out->name, it.body, keep);
				out->name[keep] = '\0';
				out->name_len = (uint8_t)keep;
				out->name_truncated = it.size > ADV_NAME_MAX;
				out->name_kind = (it.type == AD_TYPE_NAME_COMPLETE) ?
						 ADV_NAME_COMPLETE : ADV_NAME_SHORT;
			}
			break;

		case AD_TYPE_UUID16_INCOMPLETE:
		case AD_TYPE_UUID16_COMPLETE:
			if (it.type == AD_TYPE_UUID16_COMPLETE)
				out->uuid_list_complete = true;
			for (size_t k = 0; k + 1u < it.size; k += 2u) {
				if (out->uuid_count == ADV_UUID_MAX) {
					out->uuid_dropped = true;
					break;
				}
				out->uuids[out->uuid_count++] = le16(it.body + k);
			}
			break;

		case AD_TYPE_MANUFACTURER:
			if (!out->has_mfr && it.size >= 2u) {
				size_t n = it.size - 2u;

				if (n > ADV_MFR_DATA_MAX)
					n = ADV_MFR_DATA_MAX;
				out->has_mfr = true;
				out->company_id = le16(it.body);
				if (n != 0u)
					memcpy(out->mfr_data, it.body + 2, n);
				out->mfr_len = (uint8_t)n;
			}
			break;

		default:
			break;
		}
	}
	return ADV_OK;
}
