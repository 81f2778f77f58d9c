/* board.h - services of the power-mgmt-004 board fixture (provided). */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

/* Report that event `id` (1..5) ran; `tick_ms` is your tick count at that
 * moment. Prints one line: "event <id> tick <tick_ms> real <ms>", where
 * <ms> is the board's own measure of the milliseconds elapsed since reset. */
void board_event(unsigned id, uint32_t tick_ms);

/* End of the run: prints "done tick <tick_ms> real <ms> systick <n>
 * asleep <a>/<s>" (n: SysTick exceptions taken since reset; a of s samples
 * of the board's activity monitor found the core halted in WFI) and ends
 * the program with exit status 0. Never returns.
 *
 * The activity monitor is the timer1 interrupt (when the run enables it).
 * A sample counts as "asleep" when a WFI instruction lies within the 8
 * bytes before the interrupted instruction: the core was halted in WFI, or
 * it had just woken with interrupts masked and re-enabled them right after
 * the WFI. */
void board_done(uint32_t tick_ms) __attribute__((noreturn));

#endif
