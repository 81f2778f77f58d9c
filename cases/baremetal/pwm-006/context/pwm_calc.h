/*
 * pwm_calc.h - register values of the PWM0 timer of the LX-4 lamp driver.
 *
 * PWM0 counts ticks of its prescaled clock:
 *   tick frequency = PWM_CLK_HZ / (PRESCALER + 1),   PRESCALER 0..127
 * The counter runs 0, 1, ..., PERIOD, 0, 1, ... so one PWM period lasts
 * PERIOD + 1 ticks (PERIOD is a 16-bit register: at most 65535, so at most
 * 65536 ticks). The output is high while the counter is below COMPARE:
 * COMPARE 0 keeps it low, COMPARE PERIOD + 1 keeps it high.
 */
#ifndef PWM_CALC_H
#define PWM_CALC_H

#include <stdint.h>

#define PWM_CLK_HZ          16777216u  /* timer clock: 16.777216 MHz crystal */
#define PWM_PRESCALER_MAX   127u       /* 7-bit PRESCALER register */
#define PWM_TICKS_MAX       65536u     /* PERIOD + 1 at most */
#define PWM_TICKS_MIN       2u         /* PERIOD at least 1 */
#define PWM_DUTY_MAX        1000u      /* duty in permille: 1000 = always high */

#define PWM_OK              0
#define PWM_ERR_FREQ        (-1)       /* frequency cannot be produced */
#define PWM_ERR_DUTY        (-2)       /* duty above PWM_DUTY_MAX */

typedef struct {
	uint32_t prescaler;   /* PRESCALER register value */
	uint32_t period;      /* PERIOD register value */
	uint32_t compare;     /* COMPARE register value */
} pwm_regs_t;

/* Compute the three register values for freq_hz and duty_permille.
 * Returns PWM_OK, PWM_ERR_FREQ or PWM_ERR_DUTY; regs is never NULL. */
int pwm_calc(uint32_t freq_hz, uint32_t duty_permille, pwm_regs_t *regs);

#endif /* PWM_CALC_H */
