/*
 * Power-loss-safe A/B image swap of the HB-2 boot loader (swap.h).
 *
 * Every step is idempotent: its source is intact until the step's marker
 * is set, so a resume simply redoes the first unmarked step from its erase.
 */
#include <stddef.h>
#include <stdint.h>

#include "swap.h"

#define SECTOR_ADDR(s) ((uint32_t)(s) * FLASH_SECTOR_SIZE)
#define NSTEPS (3u * SLOT_SECTORS)

static uint8_t copybuf[FLASH_SECTOR_SIZE];

static int copy_sector(uint32_t dst, uint32_t src)
{
	if (flash_erase(dst) != FLASH_OK) {
		return SWAP_EIO;
	}
	if (flash_read(SECTOR_ADDR(src), copybuf, FLASH_SECTOR_SIZE) != FLASH_OK) {
		return SWAP_EIO;
	}
	if (flash_program(SECTOR_ADDR(dst), copybuf, FLASH_SECTOR_SIZE) != FLASH_OK) {
		return SWAP_EIO;
	}
	return SWAP_OK;
}

static int set_marker(uint32_t off)
{
	const uint8_t zero = STATUS_SET;

	if (flash_program(SECTOR_ADDR(STATUS_SECTOR) + off, &zero, 1u) != FLASH_OK) {
		return SWAP_EIO;
	}
	return SWAP_OK;
}

/* Performs steps first .. NSTEPS-1 (step index k: sector k/3, step k%3+1), then the done byte. */
static int run_from(unsigned first)
{
	unsigned k;

	for (k = first; k < NSTEPS; k++) {
		unsigned i = k / 3u, s = k % 3u + 1u;
		int rc;

		if (s == 1u) {
			rc = copy_sector(SCRATCH_SECTOR, SECONDARY_FIRST + i);
		} else if (s == 2u) {
			rc = copy_sector(SECONDARY_FIRST + i, PRIMARY_FIRST + i);
		} else {
			rc = copy_sector(PRIMARY_FIRST + i, SCRATCH_SECTOR);
		}
		if (rc != SWAP_OK || set_marker(STATUS_STEP(i, s)) != SWAP_OK) {
			return SWAP_EIO;
		}
	}
	return set_marker(STATUS_DONE_OFF);
}

int swap_images(void)
{
	static const uint8_t magic[4] = {STATUS_MAGIC_0, STATUS_MAGIC_1, STATUS_MAGIC_2, STATUS_MAGIC_3};

	if (flash_erase(STATUS_SECTOR) != FLASH_OK) {
		return SWAP_EIO;
	}
	if (flash_program(SECTOR_ADDR(STATUS_SECTOR) + STATUS_MAGIC_OFF, magic, sizeof magic) != FLASH_OK) {
		return SWAP_EIO;
	}
	return run_from(0u);
}

int swap_resume(void)
{
	uint8_t st[STATUS_STEP_OFF + NSTEPS];
	unsigned k;

	if (flash_read(SECTOR_ADDR(STATUS_SECTOR), st, sizeof st) != FLASH_OK) {
		return SWAP_EIO;
	}
	if (st[0] != STATUS_MAGIC_0 || st[1] != STATUS_MAGIC_1 || st[2] != STATUS_MAGIC_2 ||
	    st[3] != STATUS_MAGIC_3 || st[STATUS_DONE_OFF] == STATUS_SET) {
		return SWAP_NONE;
	}
	for (k = 0; k < NSTEPS && st[STATUS_STEP_OFF + k] == STATUS_SET; k++) {
	}
	if (run_from(k) != SWAP_OK) {
		return SWAP_EIO;
	}
	return SWAP_RESUMED;
}
