/* RB-1 launch check: offset-based range tests on the two vector words. */
#include <stdint.h>
#include "boot_check.h"

int boot_image_check(const uint32_t *vectors)
{
	const uint32_t initial_sp = vectors[0];
	const uint32_t entry = vectors[1];
	int verdict = BOOT_OK;

	if ((initial_sp & entry) == ERASED_WORD) {
		verdict = BOOT_ERR_EMPTY;
	} else if ((initial_sp & 7u) != 0u ||
		   initial_sp - RAM_START - 1u >= RAM_END - RAM_START) {
		/* sp - RAM_START - 1 wraps for sp <= RAM_START, so one unsigned
		 * comparison covers both ends of RAM_START < sp <= RAM_END. */
		verdict = BOOT_ERR_SP;
	} else if (!(entry & 1u) ||
		   (entry - APP_FLASH_START) >= (APP_FLASH_END - APP_FLASH_START)) {
		/* entry is odd here and both slot bounds are even, so testing the
		 * odd value is the same as testing entry & ~1. */
		verdict = BOOT_ERR_RESET;
	}
	return verdict;
}
