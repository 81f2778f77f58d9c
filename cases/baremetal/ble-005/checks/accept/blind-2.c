/*
 * HG-7 scanner gateway - legacy advertising payload parser.
 *
 * Two passes over the payload:
 *   1. validate: every AD structure fits in the payload and every 16-bit
 *      UUID list holds a whole number of UUIDs (stops at a 0 length byte);
 *   2. extract: only a valid payload is reported into *out.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "adv_parse.h"

/* One AD structure as seen while walking the payload. */
struct ad_item {
	uint8_t        type;
	const uint8_t *body;   /* data bytes after the type */
	size_t         size;   /* number of data bytes */
};

/* Iterator over the AD structures. */
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
		return AD_STEP_END;            /* rest is insignificant */

	avail = (size_t)(c->end - c->p) - 1u;  /* bytes after the length byte */
	if (l > avail)
		return AD_STEP_BAD;

	it->type = c->p[1];
	it->body = c->p + 2;
	it->size = l - 1u;
	c->p += 1u + l;
	return AD_STEP_ITEM;
}

static bool is_uuid16_list(uint8_t type)
{
	return type == AD_TYPE_UUID16_INCOMPLETE ||
	       type == AD_TYPE_UUID16_COMPLETE;
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
		if (is_uuid16_list(it.type) && (it.size & 1u))
			return false;
	}
	return s == AD_STEP_END;
}

static void take_flags(struct adv_report *r, const struct ad_item *it)
{
	if (r->has_flags || it->size < 1u)
		return;
	r->has_flags = true;
	r->flags = it->body[0];
}

static void take_name(struct adv_report *r, const struct ad_item *it)
{
	uint8_t kind = (it->type == AD_TYPE_NAME_COMPLETE) ? ADV_NAME_COMPLETE
							   : ADV_NAME_SHORT;
	size_t keep;

	/* First name wins, except that a Complete name beats a Shortened one. */
	if (r->name_kind >= kind)
		return;

	keep = it->size < ADV_NAME_MAX ? it->size : ADV_NAME_MAX;
	memset(r->name, 0, sizeof r->name);
	if (keep != 0u)
		memcpy(r->name, it->body, keep);
	r->name_len = (uint8_t)keep;
	r->name_truncated = it->size > ADV_NAME_MAX;
	r->name_kind = kind;
}

static void take_uuids(struct adv_report *r, const struct ad_item *it)
{
	size_t count = it->size / 2u;

	if (it->type == AD_TYPE_UUID16_COMPLETE)
		r->uuid_list_complete = true;

	for (size_t k = 0; k < count; k++) {
		if (r->uuid_count == ADV_UUID_MAX) {
			r->uuid_dropped = true;
			break;
		}
		r->uuids[r->uuid_count] = le16(it->body + 2u * k);
		r->uuid_count++;
	}
}

static void take_mfr(struct adv_report *r, const struct ad_item *it)
{
	size_t n;

	if (r->has_mfr || it->size < 2u)
		return;

	n = it->size - 2u;
	if (n > ADV_MFR_DATA_MAX)
		n = ADV_MFR_DATA_MAX;

	r->has_mfr = true;
	r->company_id = le16(it->body);
	if (n != 0u)
		memcpy(r->mfr_data, it->body + 2, n);
	r->mfr_len = (uint8_t)n;
}

int adv_parse(const uint8_t *data, size_t len, struct adv_report *out)
{
	struct ad_cursor c;
	struct ad_item it;

	/* Empty report: all flags false, all counts 0, name "". */
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
			take_flags(out, &it);
			break;
		case AD_TYPE_NAME_SHORT:
		case AD_TYPE_NAME_COMPLETE:
			take_name(out, &it);
			break;
		case AD_TYPE_UUID16_INCOMPLETE:
		case AD_TYPE_UUID16_COMPLETE:
			take_uuids(out, &it);
			break;
		case AD_TYPE_MANUFACTURER:
			take_mfr(out, &it);
			break;
		default:
			break;
		}
	}
	return ADV_OK;
}
