/*
 * boot_check.h - launch check of the RB-1 bootloader.
 *
 * Memory map of the RB-1 controller:
 *   0x00000000 .. 0x00007FFF  bootloader
 *   0x00008000 .. 0x0003FFFF  application slot; the application's vector
 *                             table starts at 0x00008000
 *   0x20000000 .. 0x2001FFFF  RAM (128 KiB)
 *
 * Word 0 of a Cortex-M vector table is the initial stack pointer, word 1
 * the reset handler address (bit 0 set: Thumb code).
 */
#ifndef BOOT_CHECK_H
#define BOOT_CHECK_H

#include <stdint.h>

#define APP_FLASH_START   0x00008000u   /* first byte of the application slot */
#define APP_FLASH_END     0x00040000u   /* first byte after the application slot */
#define RAM_START         0x20000000u   /* first byte of RAM */
#define RAM_END           0x20020000u   /* first byte after RAM */
#define ERASED_WORD       0xFFFFFFFFu   /* content of erased flash */

#define BOOT_OK           0   /* the image may be started */
#define BOOT_ERR_EMPTY    1   /* the slot is erased: no image */
#define BOOT_ERR_SP       2   /* initial stack pointer unusable */
#define BOOT_ERR_RESET    3   /* reset vector unusable */

/* Decide whether the image whose vector table starts at `vectors` may be
 * started. Reads vectors[0] and vectors[1] only; never NULL. */
int boot_image_check(const uint32_t *vectors);

#endif /* BOOT_CHECK_H */
