/* defect: swap_resume() redoes the interrupted step without erasing its destination first; after a power failure just before that erase, the copy is ANDed onto old data.
 * breaks: "Otherwise it continues the swap at the first step whose marker is not set (redoing that whole step: erase, then copy), performs every remaining step, sets the done byte and returns `SWAP_RESUMED`."
 * must_fail: scenario_cut_before_an_erase, scenario_earlier_loader_magic_only_and_all_steps, scenario_sweep_single_failure, scenario_sweep_failure_before_resume_erase
 */
/*
 * HB-2 heat-pump controller boot loader: power-loss-safe A/B image swap.
 *
 * The swap is a fixed sequence of 12 steps (3 per slot sector). Step k
 * (0 .. 11) belongs to slot sector k / 3 and is step (k % 3) + 1 of it;
 * its marker is therefore the status byte STATUS_STEP_OFF + k. Every step
 * erases one destination sector and copies one source sector into it; the
 * source of a step is never touched before the step's marker is set, so a
 * step interrupted by a power failure can always be redone from scratch.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "swap.h"

#define TOTAL_STEPS  (SLOT_SECTORS * 3u)

static uint8_t sector_buf[FLASH_SECTOR_SIZE];

static uint32_t sector_addr(uint32_t sector)
{
	return sector * FLASH_SECTOR_SIZE;
}

/* Source and destination sectors of step k. */
static void step_sectors(uint32_t k, uint32_t *src, uint32_t *dst)
{
	uint32_t i = k / 3u;
	uint32_t primary = PRIMARY_FIRST + i;
	uint32_t secondary = SECONDARY_FIRST + i;

	switch (k % 3u) {
	case 0: /* step 1: secondary -> scratch */
		*src = secondary;
		*dst = SCRATCH_SECTOR;
		break;
	case 1: /* step 2: primary -> secondary */
		*src = primary;
		*dst = secondary;
		break;
	default: /* step 3: scratch -> primary */
		*src = SCRATCH_SECTOR;
		*dst = primary;
		break;
	}
}

/* Programs one status byte to STATUS_SET. */
static int set_marker(uint32_t off)
{
	const uint8_t set = STATUS_SET;

	return flash_program(sector_addr(STATUS_SECTOR) + off, &set, 1);
}

/* Copies src into dst, erasing dst first when asked to. */
static int copy_sector(uint32_t dst, uint32_t src, int erase)
{
	if (flash_read(sector_addr(src), sector_buf, FLASH_SECTOR_SIZE) != FLASH_OK)
		return -1;
	if (erase && flash_erase(dst) != FLASH_OK)
		return -1;
	if (flash_program(sector_addr(dst), sector_buf, FLASH_SECTOR_SIZE) != FLASH_OK)
		return -1;
	return 0;
}

/*
 * Performs steps first .. TOTAL_STEPS-1, then sets the done byte.
 * When resuming, the destination of the first step is already erased.
 */
static int run_steps(uint32_t first, int resuming)
{
	for (uint32_t k = first; k < TOTAL_STEPS; k++) {
		uint32_t src, dst;

		step_sectors(k, &src, &dst);
		if (copy_sector(dst, src, !(resuming && k == first)) != 0)
			return SWAP_EIO;
		if (set_marker(STATUS_STEP(k / 3u, (k % 3u) + 1u)) != FLASH_OK)
			return SWAP_EIO;
	}
	if (set_marker(STATUS_DONE_OFF) != FLASH_OK)
		return SWAP_EIO;
	return 0;
}

int swap_images(void)
{
	static const uint8_t magic[4] = {
		STATUS_MAGIC_0, STATUS_MAGIC_1, STATUS_MAGIC_2, STATUS_MAGIC_3
	};

	if (flash_erase(STATUS_SECTOR) != FLASH_OK)
		return SWAP_EIO;
	if (flash_program(sector_addr(STATUS_SECTOR) + STATUS_MAGIC_OFF, magic,
			  sizeof(magic)) != FLASH_OK)
		return SWAP_EIO;

	if (run_steps(0, 0) != 0)
		return SWAP_EIO;
	return SWAP_OK;
}

int swap_resume(void)
{
	static const uint8_t magic[4] = {
		STATUS_MAGIC_0, STATUS_MAGIC_1, STATUS_MAGIC_2, STATUS_MAGIC_3
	};
	uint8_t status[STATUS_STEP_OFF + TOTAL_STEPS];
	uint32_t first = 0;

	if (flash_read(sector_addr(STATUS_SECTOR), status, sizeof(status)) != FLASH_OK)
		return SWAP_EIO;

	if (memcmp(&status[STATUS_MAGIC_OFF], magic, sizeof(magic)) != 0)
		return SWAP_NONE;
	if (status[STATUS_DONE_OFF] == STATUS_SET)
		return SWAP_NONE;

	while (first < TOTAL_STEPS &&
	       status[STATUS_STEP(first / 3u, (first % 3u) + 1u)] == STATUS_SET)
		first++;

	if (run_steps(first, 1) != 0)
		return SWAP_EIO;
	return SWAP_RESUMED;
}
