/*
 * ring.h - wear-spreading settings ring of the TH-4 thermostat.
 *
 * The newest settings record lives somewhere in a ring of 16 fixed-size
 * slots in EEPROM; every save goes to the next slot. The EEPROM is reached
 * through the two functions below (provided by the platform, not by you).
 */
#ifndef RING_H
#define RING_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------- EEPROM (provided) */

#define EEPROM_SIZE 256u   /* addresses 0 .. 255 */

/* Copy len bytes at addr into buf / write len bytes of data at addr (any byte values).
 * Return 0, or -1 when the range is outside the EEPROM or the write failed
 * (nothing was written then). */
int eeprom_read(uint32_t addr, void *buf, size_t len);
int eeprom_write(uint32_t addr, const void *data, size_t len);

/* ---------------------------------------------- ring (yours) */

#define RING_SLOTS      16u   /* slot i occupies addresses 16*i .. 16*i+15 */
#define RING_SLOT_SIZE  16u
#define RING_PAYLOAD    14u

/* Record layout inside a slot:
 *   byte 0       sequence number (8 bits, wrapping)
 *   bytes 1..14  payload
 *   byte 15      CRC-8 of bytes 0..14 */

/* CRC-8 of len bytes (parameters in the specification). */
uint8_t ring_crc8(const uint8_t *data, size_t len);

/* Reads the EEPROM and finds the newest valid record. Returns its slot
 * (0 .. 15), -1 when no slot holds a valid record, or -2 when the EEPROM
 * cannot be read. */
int ring_init(void);

/* Copies the payload of the newest valid record and stores its sequence
 * number in *seq. Returns 0, or -1 when there is none. */
int ring_latest(uint8_t payload[RING_PAYLOAD], uint8_t *seq);

/* Saves payload as the new newest record. Returns the slot written (0 .. 15),
 * or -1 when the EEPROM write failed. */
int ring_append(const uint8_t payload[RING_PAYLOAD]);

#endif /* RING_H */
