/* Analog inputs of the nRF SAADC for devicetree sources (zephyr,input-positive
 * and zephyr,input-negative), as Zephyr's <zephyr/dt-bindings/adc/nrf-saadc.h>
 * numbers them, written for EmbedEval's devicetree overlay compile check. */
#ifndef EMBEDEVAL_DT_BINDINGS_ADC_NRF_SAADC_H
#define EMBEDEVAL_DT_BINDINGS_ADC_NRF_SAADC_H

#define NRF_SAADC_AIN0 1
#define NRF_SAADC_AIN1 2
#define NRF_SAADC_AIN2 3
#define NRF_SAADC_AIN3 4
#define NRF_SAADC_AIN4 5
#define NRF_SAADC_AIN5 6
#define NRF_SAADC_AIN6 7
#define NRF_SAADC_AIN7 8

#endif
