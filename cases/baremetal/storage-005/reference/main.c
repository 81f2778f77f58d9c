/*
 * TH-4 settings ring: 16 EEPROM slots of 16 bytes (seq, 14-byte payload,
 * CRC-8). The newest valid record is found with 8-bit serial-number
 * arithmetic, so the search works across the 255 -> 0 wrap.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ring.h"

#define CRC_POLY 0x31u
#define CRC_INIT 0xFFu

static int newest_slot = -1;     /* -1: no valid record */
static uint8_t newest_seq;

uint8_t ring_crc8(const uint8_t *data, size_t len)
{
	uint8_t crc = CRC_INIT;
	size_t i;
	int b;

	for (i = 0; i < len; i++) {
		crc ^= data[i];
		for (b = 0; b < 8; b++) {
			crc = (crc & 0x80u) ? (uint8_t)((crc << 1) ^ CRC_POLY) : (uint8_t)(crc << 1);
		}
	}
	return crc;
}

/* a newer than b in 8-bit serial-number arithmetic */
static int seq_newer(uint8_t a, uint8_t b)
{
	uint8_t d = (uint8_t)(a - b);

	return d >= 1u && d <= 127u;
}

static int slot_valid(const uint8_t rec[RING_SLOT_SIZE])
{
	return ring_crc8(rec, RING_SLOT_SIZE - 1u) == rec[RING_SLOT_SIZE - 1u];
}

int ring_init(void)
{
	uint8_t rec[RING_SLOT_SIZE];
	unsigned i;

	newest_slot = -1;
	for (i = 0; i < RING_SLOTS; i++) {
		if (eeprom_read(i * RING_SLOT_SIZE, rec, sizeof rec) != 0) {
			newest_slot = -1;
			return -2;
		}
		if (!slot_valid(rec)) {
			continue;
		}
		if (newest_slot < 0 || seq_newer(rec[0], newest_seq)) {
			newest_slot = (int)i;
			newest_seq = rec[0];
		}
	}
	return newest_slot;
}

int ring_latest(uint8_t payload[RING_PAYLOAD], uint8_t *seq)
{
	uint8_t rec[RING_SLOT_SIZE];

	if (newest_slot < 0 || eeprom_read((uint32_t)newest_slot * RING_SLOT_SIZE, rec, sizeof rec) != 0 ||
	    !slot_valid(rec)) {
		return -1;
	}
	memcpy(payload, &rec[1], RING_PAYLOAD);
	*seq = rec[0];
	return 0;
}

int ring_append(const uint8_t payload[RING_PAYLOAD])
{
	uint8_t rec[RING_SLOT_SIZE];
	unsigned slot;
	uint8_t seq;

	if (newest_slot < 0) {
		slot = 0;
		seq = 0;
	} else {
		slot = ((unsigned)newest_slot + 1u) % RING_SLOTS;
		seq = (uint8_t)(newest_seq + 1u);
	}
	rec[0] = seq;
	memcpy(&rec[1], payload, RING_PAYLOAD);
	rec[RING_SLOT_SIZE - 1u] = ring_crc8(rec, RING_SLOT_SIZE - 1u);
	if (eeprom_write(slot * RING_SLOT_SIZE, rec, sizeof rec) != 0) {
		return -1;
	}
	newest_slot = (int)slot;
	newest_seq = seq;
	return (int)slot;
}
