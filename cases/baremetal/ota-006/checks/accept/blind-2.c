/*
 * swap.c - A/B image exchange through the scratch sector (HB-2 boot loader).
 *
 * Progress lives only in the status sector:
 *   magic  "SWP1"  at 0..3   -> swap committed
 *   done   0x00    at 4      -> swap finished
 *   marker 0x00    at 8 + 3*i + (s-1) -> step s of slot sector i finished
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swap.h"

#define CHUNK 32u   /* copy granularity; FLASH_SECTOR_SIZE is a multiple of it */

#define STATUS_BASE (STATUS_SECTOR * FLASH_SECTOR_SIZE)

/* Reads one byte of the status sector into *b. */
static bool status_byte(uint32_t off, uint8_t *b)
{
	return flash_read(STATUS_BASE + off, b, 1) == FLASH_OK;
}

static bool status_mark(uint32_t off)
{
	uint8_t zero = STATUS_SET;

	return flash_program(STATUS_BASE + off, &zero, 1) == FLASH_OK;
}

/*
 * One step: erase the destination sector, then copy the source sector
 * into it chunk by chunk.
 */
static bool move_sector(uint32_t from, uint32_t to)
{
	uint8_t chunk[CHUNK];
	uint32_t src = from * FLASH_SECTOR_SIZE;
	uint32_t dst = to * FLASH_SECTOR_SIZE;

	if (flash_erase(to) != FLASH_OK)
		return false;

	for (uint32_t off = 0; off < FLASH_SECTOR_SIZE; off += CHUNK) {
		if (flash_read(src + off, chunk, CHUNK) != FLASH_OK)
			return false;
		if (flash_program(dst + off, chunk, CHUNK) != FLASH_OK)
			return false;
	}
	return true;
}

/*
 * Performs the swap from step `step` (1..3) of slot sector `sec` (0..3)
 * to the end, marking each step, and finally sets the done byte.
 */
static bool swap_from(uint32_t sec, uint32_t step)
{
	for (; sec < SLOT_SECTORS; sec++, step = 1) {
		const uint32_t pri = PRIMARY_FIRST + sec;
		const uint32_t scd = SECONDARY_FIRST + sec;

		for (; step <= 3; step++) {
			bool ok;

			if (step == 1)
				ok = move_sector(scd, SCRATCH_SECTOR);
			else if (step == 2)
				ok = move_sector(pri, scd);
			else
				ok = move_sector(SCRATCH_SECTOR, pri);

			if (!ok || !status_mark(STATUS_STEP(sec, step)))
				return false;
		}
	}
	return status_mark(STATUS_DONE_OFF);
}

int swap_images(void)
{
	const uint8_t magic[] = {
		STATUS_MAGIC_0, STATUS_MAGIC_1, STATUS_MAGIC_2, STATUS_MAGIC_3,
	};

	if (flash_erase(STATUS_SECTOR) != FLASH_OK)
		goto io_error;
	if (flash_program(STATUS_BASE + STATUS_MAGIC_OFF, magic, sizeof magic) != FLASH_OK)
		goto io_error;
	/* Committed from here on: swap_resume() finishes whatever is left. */
	if (!swap_from(0, 1))
		goto io_error;
	return SWAP_OK;

io_error:
	return SWAP_EIO;
}

int swap_resume(void)
{
	const uint8_t expect[4] = {
		STATUS_MAGIC_0, STATUS_MAGIC_1, STATUS_MAGIC_2, STATUS_MAGIC_3,
	};
	uint8_t b;
	uint32_t sec, step;

	for (uint32_t n = 0; n < 4; n++) {
		if (!status_byte(STATUS_MAGIC_OFF + n, &b))
			return SWAP_EIO;
		if (b != expect[n])
			return SWAP_NONE;   /* never committed */
	}

	if (!status_byte(STATUS_DONE_OFF, &b))
		return SWAP_EIO;
	if (b == STATUS_SET)
		return SWAP_NONE;       /* already finished */

	/* Find the first step whose marker is not set. */
	for (sec = 0; sec < SLOT_SECTORS; sec++) {
		for (step = 1; step <= 3; step++) {
			if (!status_byte(STATUS_STEP(sec, step), &b))
				return SWAP_EIO;
			if (b != STATUS_SET)
				goto resume;
		}
	}
	/* Every step is marked: only the done byte is missing. */
	if (!status_mark(STATUS_DONE_OFF))
		return SWAP_EIO;
	return SWAP_RESUMED;

resume:
	if (!swap_from(sec, step))
		return SWAP_EIO;
	return SWAP_RESUMED;
}
