/* The SAADC inputs of nRF52 SoCs (nrf52840.dtsi includes this header): the
 * analog pins of nrf-saadc.h plus the VDD input, as Zephyr's
 * <zephyr/dt-bindings/adc/nrf-saadc-v2.h> numbers it, written for EmbedEval's
 * devicetree overlay compile check. */
#ifndef EMBEDEVAL_DT_BINDINGS_ADC_NRF_SAADC_V2_H
#define EMBEDEVAL_DT_BINDINGS_ADC_NRF_SAADC_V2_H

#include <zephyr/dt-bindings/adc/nrf-saadc.h>

#define NRF_SAADC_VDD 9

#endif
