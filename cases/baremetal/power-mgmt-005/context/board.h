/* board.h - services of the power-mgmt-005 board fixture (provided). */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

/* Read the vibration sensor once and return the reading (any int32_t
 * value). A slow bus transaction of about 50 us; call it from main (thread
 * mode) only, never from an interrupt handler. The board notes how long
 * after its period's timer0 interrupt each read starts (the n-th read
 * belongs to the n-th timer0 interrupt). */
int32_t board_sensor_read(void);

/* Report a finished window of 10 readings: prints
 * "window <index> min <min> max <max> mean <mean> at <ms> ms", where <ms>
 * is the board's own measure of the milliseconds since reset.
 * After the last window of the run it prints
 * "done windows <w> periods <p> reads <r> isr_reads <i> max_lag <us> us asleep <a>/<s>"
 * and ends the program (exit status 0) instead of returning:
 *   p  timer0 interrupts so far,     r  board_sensor_read() calls so far,
 *   i  calls made from an interrupt handler,
 *   us the longest time from a timer0 interrupt to the start of the
 *      board_sensor_read() that belongs to it, in microseconds,
 *   a/s samples of the activity monitor that found the core asleep / all.
 *
 * The activity monitor is the board's timer1 interrupt. A sample counts
 * as "asleep" when a WFI instruction lies within the 8 bytes before the
 * interrupted instruction: the core was halted in WFI, or it had just
 * woken with interrupts masked and re-enabled them right after the WFI. */
void board_window(uint32_t index, int32_t min, int32_t max, int32_t mean);

#endif
