/*
 * mpu_guard.h - memory protection for the KX-7 metering controller.
 *
 * The memory map of the board (Cortex-M3, QEMU mps2-an385) and the two
 * functions your file provides. The vector table, the reset handler and the
 * application (main) are provided and linked with your file.
 */
#ifndef MPU_GUARD_H
#define MPU_GUARD_H

#include <stdint.h>

/* Code flash: vector table, code and constants. */
#define CODE_BASE         0x00000000u
#define CODE_SIZE         0x00400000u   /* 4 MB */

/* SRAM: data, bss, heap and stacks. */
#define SRAM_BASE         0x20000000u
#define SRAM_SIZE         0x00400000u   /* 4 MB */

/* The main stack occupies 0x203F8000..0x203FFFFF and grows down toward the
 * guard; the 1 KB just below it is the stack guard. */
#define STACK_GUARD_BASE  0x203F7C00u
#define STACK_GUARD_SIZE  0x00000400u   /* 1 KB */

/* APB peripheral window: timers, dual timer, UARTs, watchdog. */
#define PERIPH_BASE       0x40000000u
#define PERIPH_SIZE       0x0000C000u   /* 48 KB: 0x40000000..0x4000BFFF */

/* What a call into non-executable memory returns after the MemManage
 * handler has recovered from it. */
#define MPU_BLOCKED_CALL_RESULT 0xFFFFFFFFu

/* Program and enable the MPU and the MemManage exception (called once,
 * from privileged thread mode, with the MPU disabled). */
void mpu_setup(void);

/* The MemManage exception handler (its vector is already in the table). */
void MemManage_Handler(void);

#endif /* MPU_GUARD_H */
