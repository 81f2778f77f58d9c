/* defect: the stack pointer range is tested as RAM_START <= sp < RAM_END (an address inside RAM), so the top of RAM is refused and the RAM base is accepted
 * breaks: "`BOOT_ERR_SP` (2) unless the initial stack pointer is usable: `sp` is a multiple of 8, and `RAM_START < sp <= RAM_END`."
 * must_fail: scenario_sp_ram_bounds
 */
#include <stdint.h>
#include "boot_check.h"

int boot_image_check(const uint32_t *vectors)
{
	uint32_t sp = vectors[0];
	uint32_t reset = vectors[1];
	uint32_t entry;

	/* 1. erased slot: both words still 0xFFFFFFFF */
	if ((sp & reset) == ERASED_WORD)
		return BOOT_ERR_EMPTY;

	/* 2. initial SP: 8-byte aligned and in RAM */
	if (sp % 8u != 0u || sp - RAM_START >= RAM_END - RAM_START)
		return BOOT_ERR_SP;

	/* 3. reset vector: Thumb bit set, handler in the application slot */
	entry = reset & 0xFFFFFFFEu;
	if (!(reset & 0x1u) ||
	    entry - APP_FLASH_START >= APP_FLASH_END - APP_FLASH_START)
		return BOOT_ERR_RESET;

	return BOOT_OK;
}
