/* PWM specifier helpers for devicetree sources: the commonly used subset of
 * Zephyr's <zephyr/dt-bindings/pwm/pwm.h>, written for EmbedEval's
 * devicetree overlay compile check. Periods are in nanoseconds. */
#ifndef EMBEDEVAL_DT_BINDINGS_PWM_PWM_H
#define EMBEDEVAL_DT_BINDINGS_PWM_PWM_H

#define PWM_POLARITY_NORMAL (0 << 0)
#define PWM_POLARITY_INVERTED (1 << 0)
#define PWM_POLARITY_MASK 0x1

#define PWM_NSEC(x) (x)
#define PWM_USEC(x) (PWM_NSEC(x) * 1000)
#define PWM_MSEC(x) (PWM_USEC(x) * 1000)
#define PWM_SEC(x) (PWM_MSEC(x) * 1000)
#define PWM_HZ(x) (PWM_SEC(1) / (x))
#define PWM_KHZ(x) (PWM_HZ((x) * 1000))
#define PWM_MHZ(x) (PWM_KHZ((x) * 1000))

#endif
