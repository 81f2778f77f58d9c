/*
 * tlm.h - packed telemetry record of the HB-7 hive monitor.
 *
 * The radio link carries a 7-byte record; the firmware keeps it unpacked
 * in tlm_record_t. The field widths, scaling and bit order are given in the
 * specification.
 */
#ifndef TLM_H
#define TLM_H

#include <stdbool.h>
#include <stdint.h>

#define TLM_PACKED_SIZE 7u

/* Operating modes: 0..5 are defined, 6 and 7 are invalid. */
#define TLM_MODE_MAX 5u

typedef struct {
	uint16_t seq;            /* frame counter */
	int16_t temperature_cC;  /* temperature, hundredths of a degree Celsius */
	uint16_t battery_mV;     /* battery voltage, millivolts */
	uint8_t humidity_pct;    /* relative humidity, percent */
	bool alarm;              /* tamper alarm */
	uint8_t mode;            /* operating mode, 0..TLM_MODE_MAX */
	int16_t accel_mg;        /* vertical acceleration, milli-g */
} tlm_record_t;

/*
 * Packs *rec into out[0..TLM_PACKED_SIZE-1]. Returns 0, or -1 (out not
 * written) when rec->mode is invalid.
 */
int tlm_pack(const tlm_record_t *rec, uint8_t out[TLM_PACKED_SIZE]);

/*
 * Unpacks in[0..TLM_PACKED_SIZE-1] into *rec. Returns 0, or -1 (*rec not
 * written) when the record is invalid.
 */
int tlm_unpack(const uint8_t in[TLM_PACKED_SIZE], tlm_record_t *rec);

#endif /* TLM_H */
