/* ADC channel helpers for devicetree sources: the commonly used subset of
 * Zephyr's <zephyr/dt-bindings/adc/adc.h>, written for EmbedEval's
 * devicetree overlay compile check. */
#ifndef EMBEDEVAL_DT_BINDINGS_ADC_ADC_H
#define EMBEDEVAL_DT_BINDINGS_ADC_ADC_H

/* Zephyr's adc.h includes dt-util.h, so a board whose DTS includes adc.h
 * (native_sim, the nRF52 SoCs) gives its overlays BIT() and BIT_MASK(). */
#include <zephyr/dt-bindings/dt-util.h>

#define ADC_ACQ_TIME_MICROSECONDS (1)
#define ADC_ACQ_TIME_NANOSECONDS (2)
#define ADC_ACQ_TIME_TICKS (3)
#define ADC_ACQ_TIME(unit, value) (((unit) << 14) | ((value) & 0x3FFF))
#define ADC_ACQ_TIME_DEFAULT 0
#define ADC_ACQ_TIME_MAX 0x3FFF

#endif
