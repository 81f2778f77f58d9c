/*
 * swap.h - A/B image swap of the HB-2 heat-pump controller's boot loader.
 *
 * The flash holds two image slots of SLOT_SECTORS sectors each, a scratch
 * sector and a status sector. The swap exchanges the primary and the
 * secondary image sector by sector through the scratch sector, keeping its
 * progress in the status sector (layout below), so that it survives power
 * failures. The flash functions are provided by the platform, not by you.
 */
#ifndef SWAP_H
#define SWAP_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------- flash (provided) */

#define FLASH_SECTOR_SIZE   128u   /* bytes per sector */
#define SLOT_SECTORS        4u     /* sectors per image slot */

#define PRIMARY_FIRST       0u     /* sectors 0..3: primary slot   */
#define SECONDARY_FIRST     4u     /* sectors 4..7: secondary slot */
#define SCRATCH_SECTOR      8u
#define STATUS_SECTOR       9u
#define FLASH_SECTOR_COUNT  10u    /* flash addresses 0 .. 1279 */

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

/* Erases one sector (0 .. 9): every byte of it reads 0xFF afterwards. */
int flash_erase(uint32_t sector);

/* ---------------------------------------------- status sector layout */

/* Offsets inside the status sector. */
#define STATUS_MAGIC_OFF   0u     /* 4 bytes: STATUS_MAGIC when a swap was started */
#define STATUS_DONE_OFF    4u     /* 1 byte: 0x00 once the whole swap is complete */
#define STATUS_STEP_OFF    8u     /* step markers, see STATUS_STEP() */

/* The magic, in this byte order at offsets 0, 1, 2, 3. */
#define STATUS_MAGIC_0     0x53u  /* 'S' */
#define STATUS_MAGIC_1     0x57u  /* 'W' */
#define STATUS_MAGIC_2     0x50u  /* 'P' */
#define STATUS_MAGIC_3     0x31u  /* '1' */

/* Offset of the marker of step s (1, 2 or 3) of slot sector i (0 .. 3). */
#define STATUS_STEP(i, s)  (STATUS_STEP_OFF + 3u * (i) + ((s) - 1u))

/* A marker (done byte or step marker) is set when it reads 0x00. */
#define STATUS_SET         0x00u

/* ---------------------------------------------- swap (yours) */

#define SWAP_OK       0    /* swap_images: the swap is complete */
#define SWAP_NONE     0    /* swap_resume: no swap was in progress */
#define SWAP_RESUMED  1    /* swap_resume: an interrupted swap was completed */
#define SWAP_EIO    (-1)   /* a flash function failed */

/* Starts and performs a whole swap of the primary and secondary images. */
int swap_images(void);

/* Called at every boot: completes a swap that was interrupted, if any. */
int swap_resume(void);

#endif /* SWAP_H */
