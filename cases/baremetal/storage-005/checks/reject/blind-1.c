/* defect: the newest record is the one with the highest sequence number, ignoring the 8-bit wrap (among 254, 255, 0, 1 it picks 255).
 * breaks: "Record A is newer than record B when `(A.seq - B.seq) mod 256` is between 1 and 127."
 * must_fail: scenario_newest_across_seq_wrap, scenario_newest_across_slot_wrap, scenario_appends_across_seq_wrap
 */
/*
 * main.c - wear-spreading settings ring of the TH-4 thermostat.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ring.h"

#define CRC8_POLY  0x31u
#define CRC8_INIT  0xFFu

#define SEQ_OFS    0u
#define PAY_OFS    1u
#define CRC_OFS    15u

/* State of the ring, rebuilt by ring_init(). */
static int     have_newest;              /* a valid record exists */
static int     newest_slot;              /* its slot */
static uint8_t newest_seq;               /* its sequence number */
static uint8_t newest_payload[RING_PAYLOAD];

uint8_t ring_crc8(const uint8_t *data, size_t len)
{
    uint8_t crc = CRC8_INIT;
    size_t i;
    int bit;

    for (i = 0; i < len; i++) {
        crc ^= data[i];
        for (bit = 0; bit < 8; bit++) {
            if (crc & 0x80u) {
                crc = (uint8_t)((crc << 1) ^ CRC8_POLY);
            } else {
                crc = (uint8_t)(crc << 1);
            }
        }
    }
    return crc;
}

/* A is newer than B when its sequence number is higher. */
static int seq_newer(uint8_t a, uint8_t b)
{
    return a > b;
}

int ring_init(void)
{
    uint8_t slot[RING_SLOT_SIZE];
    unsigned i;

    have_newest = 0;
    newest_slot = -1;
    newest_seq = 0;
    memset(newest_payload, 0, sizeof newest_payload);

    for (i = 0; i < RING_SLOTS; i++) {
        if (eeprom_read(i * RING_SLOT_SIZE, slot, sizeof slot) != 0) {
            have_newest = 0;
            newest_slot = -1;
            return -2;
        }
        if (slot[CRC_OFS] != ring_crc8(slot, CRC_OFS)) {
            continue;    /* empty or corrupted slot */
        }
        if (!have_newest || seq_newer(slot[SEQ_OFS], newest_seq)) {
            have_newest = 1;
            newest_slot = (int)i;
            newest_seq = slot[SEQ_OFS];
            memcpy(newest_payload, &slot[PAY_OFS], RING_PAYLOAD);
        }
    }
    return have_newest ? newest_slot : -1;
}

int ring_latest(uint8_t payload[RING_PAYLOAD], uint8_t *seq)
{
    if (!have_newest) {
        return -1;
    }
    memcpy(payload, newest_payload, RING_PAYLOAD);
    *seq = newest_seq;
    return 0;
}

int ring_append(const uint8_t payload[RING_PAYLOAD])
{
    uint8_t rec[RING_SLOT_SIZE];
    unsigned slot;
    uint8_t seq;

    if (have_newest) {
        slot = ((unsigned)newest_slot + 1u) % RING_SLOTS;
        seq = (uint8_t)(newest_seq + 1u);
    } else {
        slot = 0;
        seq = 0;
    }

    rec[SEQ_OFS] = seq;
    memcpy(&rec[PAY_OFS], payload, RING_PAYLOAD);
    rec[CRC_OFS] = ring_crc8(rec, CRC_OFS);

    if (eeprom_write(slot * RING_SLOT_SIZE, rec, sizeof rec) != 0) {
        return -1;    /* state untouched: the next try targets the same slot */
    }

    have_newest = 1;
    newest_slot = (int)slot;
    newest_seq = seq;
    memcpy(newest_payload, payload, RING_PAYLOAD);
    return (int)slot;
}
