/*
 * adv_parse.h - advertising-data parser of the HG-7 scanner gateway.
 *
 * The gateway scans for the TL-4 temperature loggers and forwards what
 * their legacy advertising packets say. adv_parse() turns the advertising
 * payload (AdvData, at most 31 bytes) into one struct adv_report.
 */
#ifndef ADV_PARSE_H
#define ADV_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ADV_PAYLOAD_MAX   31   /* longest legacy advertising payload */
#define ADV_NAME_MAX      16   /* name bytes kept in a report */
#define ADV_UUID_MAX      4    /* 16-bit service UUIDs kept in a report */
#define ADV_MFR_DATA_MAX  8    /* manufacturer data bytes kept (after the company id) */

/* AD types the gateway reports; every other type is skipped. */
#define AD_TYPE_FLAGS             0x01  /* Flags */
#define AD_TYPE_UUID16_INCOMPLETE 0x02  /* Incomplete List of 16-bit Service UUIDs */
#define AD_TYPE_UUID16_COMPLETE   0x03  /* Complete List of 16-bit Service UUIDs */
#define AD_TYPE_NAME_SHORT        0x08  /* Shortened Local Name */
#define AD_TYPE_NAME_COMPLETE     0x09  /* Complete Local Name */
#define AD_TYPE_MANUFACTURER      0xFF  /* Manufacturer Specific Data */

/* Return values of adv_parse(). */
#define ADV_OK             0
#define ADV_ERR_TOO_LONG  (-1)  /* len > ADV_PAYLOAD_MAX */
#define ADV_ERR_MALFORMED (-2)  /* see the rules in the task */

/* Values of adv_report.name_kind. */
#define ADV_NAME_NONE      0
#define ADV_NAME_SHORT     1
#define ADV_NAME_COMPLETE  2

struct adv_report {
	bool     has_flags;                /* a Flags structure was found */
	uint8_t  flags;                    /* its value (0 when has_flags is false) */

	uint8_t  name_kind;                /* ADV_NAME_NONE / _SHORT / _COMPLETE */
	uint8_t  name_len;                 /* bytes in name[], 0..ADV_NAME_MAX */
	bool     name_truncated;           /* the name in the payload was longer */
	char     name[ADV_NAME_MAX + 1];   /* name_len bytes, then '\0' */

	uint8_t  uuid_count;               /* UUIDs in uuids[], 0..ADV_UUID_MAX */
	bool     uuid_list_complete;       /* a Complete List structure was found */
	bool     uuid_dropped;             /* more UUIDs were listed than fit */
	uint16_t uuids[ADV_UUID_MAX];

	bool     has_mfr;                  /* a Manufacturer Specific Data structure was found */
	uint16_t company_id;               /* its company identifier (0 when has_mfr is false) */
	uint8_t  mfr_len;                  /* bytes in mfr_data[], 0..ADV_MFR_DATA_MAX */
	uint8_t  mfr_data[ADV_MFR_DATA_MAX];
};

/*
 * Parse the advertising payload data[0..len-1] into *out.
 * data and out are never NULL. Returns ADV_OK, ADV_ERR_TOO_LONG or
 * ADV_ERR_MALFORMED.
 */
int adv_parse(const uint8_t *data, size_t len, struct adv_report *out);

#endif /* ADV_PARSE_H */
