/* nRF pin selection helpers for devicetree sources: the nRF51/nRF52/nRF53
 * subset of Zephyr's <zephyr/dt-bindings/pinctrl/nrf-pinctrl.h>, written for
 * EmbedEval's devicetree overlay compile check. Zephyr's nRF SoC trees
 * include the real header, so board overlays use NRF_PSEL() without an
 * #include. Values follow the Zephyr ABI: function in bits 31..24, low-power
 * flag in bit 15, drive in 14..11, pull in 10..9, port * 32 + pin in 8..0. */
#ifndef EMBEDEVAL_DT_BINDINGS_PINCTRL_NRF_PINCTRL_H
#define EMBEDEVAL_DT_BINDINGS_PINCTRL_NRF_PINCTRL_H

#define NRF_FUN_POS 24U
#define NRF_FUN_MSK 0xFFU
#define NRF_INVERT_POS 16U
#define NRF_INVERT_MSK 0x1U
#define NRF_LP_POS 15U
#define NRF_LP_MSK 0x1U
#define NRF_DRIVE_POS 11U
#define NRF_DRIVE_MSK 0xFU
#define NRF_PULL_POS 9U
#define NRF_PULL_MSK 0x3U
#define NRF_PIN_POS 0U
#define NRF_PIN_MSK 0x1FFU

/* Pin functions. */
#define NRF_FUN_UART_TX 0U
#define NRF_FUN_UART_RX 1U
#define NRF_FUN_UART_RTS 2U
#define NRF_FUN_UART_CTS 3U
#define NRF_FUN_SPIM_SCK 4U
#define NRF_FUN_SPIM_MOSI 5U
#define NRF_FUN_SPIM_MISO 6U
#define NRF_FUN_SPIS_SCK 7U
#define NRF_FUN_SPIS_MOSI 8U
#define NRF_FUN_SPIS_MISO 9U
#define NRF_FUN_SPIS_CSN 10U
#define NRF_FUN_TWIM_SCL 11U
#define NRF_FUN_TWIM_SDA 12U
#define NRF_FUN_I2S_SCK_M 13U
#define NRF_FUN_I2S_SCK_S 14U
#define NRF_FUN_I2S_LRCK_M 15U
#define NRF_FUN_I2S_LRCK_S 16U
#define NRF_FUN_I2S_SDIN 17U
#define NRF_FUN_I2S_SDOUT 18U
#define NRF_FUN_I2S_MCK 19U
#define NRF_FUN_PDM_CLK 20U
#define NRF_FUN_PDM_DIN 21U
#define NRF_FUN_PWM_OUT0 22U
#define NRF_FUN_PWM_OUT1 23U
#define NRF_FUN_PWM_OUT2 24U
#define NRF_FUN_PWM_OUT3 25U
#define NRF_FUN_QDEC_A 26U
#define NRF_FUN_QDEC_B 27U
#define NRF_FUN_QDEC_LED 28U
#define NRF_FUN_QSPI_SCK 29U
#define NRF_FUN_QSPI_CSN 30U
#define NRF_FUN_QSPI_IO0 31U
#define NRF_FUN_QSPI_IO1 32U
#define NRF_FUN_QSPI_IO2 33U
#define NRF_FUN_QSPI_IO3 34U
#define NRF_FUN_CAN_TX 46U
#define NRF_FUN_CAN_RX 47U
#define NRF_FUN_TWIS_SCL 48U
#define NRF_FUN_TWIS_SDA 49U

/* Output drive (nordic,drive-mode). */
#define NRF_DRIVE_S0S1 0U
#define NRF_DRIVE_H0S1 1U
#define NRF_DRIVE_S0H1 2U
#define NRF_DRIVE_H0H1 3U
#define NRF_DRIVE_D0S1 4U
#define NRF_DRIVE_D0H1 5U
#define NRF_DRIVE_S0D1 6U
#define NRF_DRIVE_H0D1 7U
#define NRF_DRIVE_E0E1 8U

/* Pull configuration. */
#define NRF_PULL_NONE 0U
#define NRF_PULL_DOWN 1U
#define NRF_PULL_UP 3U

/* Low-power mode. */
#define NRF_LP_DISABLE 0U
#define NRF_LP_ENABLE 1U

#define NRF_PIN_DISCONNECTED NRF_PIN_MSK

/* One psels entry: function fun on pin <pin> of port <port>. */
#define NRF_PSEL(fun, port, pin) \
	(((((port) * 32U + (pin)) & NRF_PIN_MSK) << NRF_PIN_POS) | \
	 ((NRF_FUN_##fun & NRF_FUN_MSK) << NRF_FUN_POS))

/* One psels entry for a function whose pin is explicitly disconnected. */
#define NRF_PSEL_DISCONNECTED(fun) \
	(NRF_PIN_DISCONNECTED | ((NRF_FUN_##fun & NRF_FUN_MSK) << NRF_FUN_POS))

#endif
