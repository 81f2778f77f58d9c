#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ring.h"

/* One EEPROM slot: sequence number, payload, CRC-8 of the 15 bytes before. */
typedef struct {
    uint8_t seq;
    uint8_t payload[RING_PAYLOAD];
    uint8_t crc;
} record_t;

_Static_assert(sizeof(record_t) == RING_SLOT_SIZE, "record_t must fill a slot");

/* Copy of every slot as read by ring_init() and as written since then. */
static record_t slots[RING_SLOTS];
static uint8_t  slot_ok[RING_SLOTS];
/* Newest valid slot, or -1 when there is none. */
static int newest = -1;

/* CRC-8, polynomial 0x31, init 0xFF, MSB first, no reflection, no xorout.
 * Nibble-wise table driven: table[n] is the CRC remainder of the 4-bit
 * value n placed in the top nibble of the register. */
uint8_t ring_crc8(const uint8_t *data, size_t len)
{
    static const uint8_t nib[16] = {
        0x00, 0x31, 0x62, 0x53, 0xC4, 0xF5, 0xA6, 0x97,
        0xB9, 0x88, 0xDB, 0xEA, 0x7D, 0x4C, 0x1F, 0x2E
    };
    uint8_t crc = 0xFF;

    while (len--) {
        crc ^= *data++;
        crc = (uint8_t)((crc << 4) ^ nib[crc >> 4]);
        crc = (uint8_t)((crc << 4) ^ nib[crc >> 4]);
    }
    return crc;
}

static int is_valid(const record_t *r)
{
    return r->crc == ring_crc8((const uint8_t *)r, RING_SLOT_SIZE - 1u);
}

/* True when sequence number a is newer than b (serial-number arithmetic). */
static int newer(uint8_t a, uint8_t b)
{
    int8_t diff = (int8_t)(uint8_t)(a - b);
    return diff > 0;    /* (a - b) mod 256 in 1 .. 127 */
}

/* The valid slot that no other valid slot is newer than, or -1. */
static int find_newest(void)
{
    unsigned i, j;

    for (i = 0; i < RING_SLOTS; i++) {
        int beaten = 0;

        if (!slot_ok[i]) {
            continue;
        }
        for (j = 0; j < RING_SLOTS && !beaten; j++) {
            if (j != i && slot_ok[j] && newer(slots[j].seq, slots[i].seq)) {
                beaten = 1;
            }
        }
        if (!beaten) {
            return (int)i;
        }
    }
    return -1;
}

int ring_init(void)
{
    unsigned i;

    newest = -1;
    memset(slot_ok, 0, sizeof slot_ok);

    if (eeprom_read(0, slots, sizeof slots) != 0) {
        return -2;
    }
    for (i = 0; i < RING_SLOTS; i++) {
        slot_ok[i] = (uint8_t)is_valid(&slots[i]);
    }
    newest = find_newest();
    return newest;
}

int ring_latest(uint8_t payload[RING_PAYLOAD], uint8_t *seq)
{
    if (newest < 0) {
        return -1;
    }
    memcpy(payload, slots[newest].payload, RING_PAYLOAD);
    *seq = slots[newest].seq;
    return 0;
}

int ring_append(const uint8_t payload[RING_PAYLOAD])
{
    record_t rec;
    int target = (newest < 0) ? 0 : (newest + 1) % (int)RING_SLOTS;

    rec.seq = (newest < 0) ? 0u : (uint8_t)(slots[newest].seq + 1u);
    memcpy(rec.payload, payload, RING_PAYLOAD);
    rec.crc = ring_crc8((const uint8_t *)&rec, RING_SLOT_SIZE - 1u);

    if (eeprom_write((uint32_t)target * RING_SLOT_SIZE, &rec, sizeof rec) != 0) {
        return -1;
    }
    slots[target] = rec;
    slot_ok[target] = 1;
    newest = target;
    return target;
}
