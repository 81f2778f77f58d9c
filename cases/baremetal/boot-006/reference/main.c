/*
 * RB-1 bootloader: decide whether the application image may be started,
 * from the first two words of its vector table.
 */
#include <stdbool.h>
#include <stdint.h>
#include "boot_check.h"

static bool sp_usable(uint32_t sp)
{
	return (sp % 8u) == 0u && sp > RAM_START && sp <= RAM_END;
}

static bool reset_usable(uint32_t reset)
{
	uint32_t handler = reset & ~1u;

	return (reset & 1u) != 0u && handler >= APP_FLASH_START && handler < APP_FLASH_END;
}

int boot_image_check(const uint32_t *vectors)
{
	uint32_t sp = vectors[0];
	uint32_t reset = vectors[1];

	if (sp == ERASED_WORD && reset == ERASED_WORD) {
		return BOOT_ERR_EMPTY;
	}
	if (!sp_usable(sp)) {
		return BOOT_ERR_SP;
	}
	if (!reset_usable(reset)) {
		return BOOT_ERR_RESET;
	}
	return BOOT_OK;
}
