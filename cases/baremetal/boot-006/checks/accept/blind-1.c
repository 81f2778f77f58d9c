/*
 * main.c - launch check of the RB-1 bootloader.
 */
#include <stdint.h>
#include "boot_check.h"

static int slot_is_erased(uint32_t sp, uint32_t reset)
{
	return sp == ERASED_WORD && reset == ERASED_WORD;
}

/* Full-descending stack: the first push writes at sp - 4, so sp may be the
 * end of RAM but not its start. AAPCS wants 8-byte alignment. */
static int sp_is_usable(uint32_t sp)
{
	if ((sp & 0x7u) != 0u) {
		return 0;
	}
	return sp > RAM_START && sp <= RAM_END;
}

static int reset_is_usable(uint32_t reset)
{
	uint32_t handler = reset & ~1u;

	if ((reset & 1u) == 0u) {
		return 0;   /* ARM state is not supported on Cortex-M */
	}
	return handler >= APP_FLASH_START && handler < APP_FLASH_END;
}

int boot_image_check(const uint32_t *vectors)
{
	const uint32_t sp = vectors[0];
	const uint32_t reset = vectors[1];

	if (slot_is_erased(sp, reset)) {
		return BOOT_ERR_EMPTY;
	}
	if (!sp_is_usable(sp)) {
		return BOOT_ERR_SP;
	}
	if (!reset_is_usable(reset)) {
		return BOOT_ERR_RESET;
	}
	return BOOT_OK;
}
