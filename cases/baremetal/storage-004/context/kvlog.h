/*
 * kvlog.h - power-loss-safe key/value store of the WM-3 water meter.
 *
 * The store keeps small values under 8-bit keys in a log of records on a
 * two-sector NOR flash, reached only through the flash functions below
 * (provided by the platform, not by you).
 */
#ifndef KVLOG_H
#define KVLOG_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------- NOR flash (provided) */

#define FLASH_SECTOR_SIZE   1024u   /* bytes per sector */
#define FLASH_SECTOR_COUNT  2u      /* sectors 0 and 1: addresses 0 .. 2047 */

/* Return codes of the flash functions. */
#define FLASH_OK     0
#define FLASH_ERANGE (-1)  /* the range is not inside the flash */
#define FLASH_EPOWER (-2)  /* power failed: nothing more reaches the flash */

/* Copies len bytes at flash address addr into buf. */
int flash_read(uint32_t addr, void *buf, size_t len);

/*
 * Programs len bytes at addr, one byte after the other in increasing
 * address order. Programming can only clear bits: each flash byte becomes
 * (old byte & new byte).
 */
int flash_program(uint32_t addr, const void *data, size_t len);

/* Erases sector (0 or 1): every byte of it reads 0xFF afterwards. */
int flash_erase(uint32_t sector);

/* ---------------------------------------------- key/value store (yours) */

#define KV_KEY_MIN    1u     /* valid keys are 1 .. 254 */
#define KV_KEY_MAX    254u
#define KV_VALUE_MAX  32u    /* a value has 0 .. 32 bytes */

#define KV_OK       0
#define KV_EINVAL   (-1)  /* bad key, length or pointer */
#define KV_ENOENT   (-2)  /* the key has no value */
#define KV_ESMALL   (-3)  /* kv_get: the value is longer than cap */
#define KV_EIO      (-4)  /* a flash function failed */
#define KV_ENOSPC   (-5)  /* no room even after compaction */

/* Builds the store's state from the flash contents. Returns KV_OK or KV_EIO. */
int kv_mount(void);

/* Copies the value of key into buf; returns its length (0 .. 32) or an error. */
int kv_get(uint8_t key, void *buf, size_t cap);

/* Stores len bytes at val as the new value of key; returns KV_OK or an error. */
int kv_set(uint8_t key, const void *val, size_t len);

#endif /* KVLOG_H */
