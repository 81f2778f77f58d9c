/* Modes of the nRF5x main regulator for devicetree sources
 * (regulator-initial-mode), as Zephyr's
 * <zephyr/dt-bindings/regulator/nrf5x.h> numbers them, written for
 * EmbedEval's devicetree overlay compile check. */
#ifndef EMBEDEVAL_DT_BINDINGS_REGULATOR_NRF5X_H
#define EMBEDEVAL_DT_BINDINGS_REGULATOR_NRF5X_H

#define NRF5X_REG_MODE_LDO 0
#define NRF5X_REG_MODE_DCDC 1

#endif
