/* defect: the handler address is compared with <= APP_FLASH_END, so a reset vector of 0x00040001 (handler just past the slot) is accepted
 * breaks: "`BOOT_ERR_RESET` (3) unless the reset vector is usable: bit 0 of `reset` is set (Thumb), and the handler address, `reset` with bit 0 cleared, is inside the application slot: `APP_FLASH_START <= (reset & ~1) < APP_FLASH_END`."
 * must_fail: scenario_reset_slot_bounds
 */
#include <stdint.h>
#include "boot_check.h"

#define THUMB_BIT  0x1u

int boot_image_check(const uint32_t *vectors)
{
	const uint32_t sp = vectors[0];
	const uint32_t reset = vectors[1];
	const uint32_t handler = reset & ~THUMB_BIT;

	if (sp == ERASED_WORD && reset == ERASED_WORD) {
		return BOOT_ERR_EMPTY;
	}

	if ((sp & 0x7u) != 0u || sp <= RAM_START || sp > RAM_END) {
		return BOOT_ERR_SP;
	}

	if ((reset & THUMB_BIT) == 0u ||
	    handler < APP_FLASH_START || handler > APP_FLASH_END) {
		return BOOT_ERR_RESET;
	}

	return BOOT_OK;
}
