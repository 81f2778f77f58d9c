/* Stand-in for stm32f4xx_hal_uart.h (tests only). */
#ifndef STM32F4XX_HAL_UART_H
#define STM32F4XX_HAL_UART_H
#include "stm32f4xx_hal_def.h"
typedef struct {
	uint32_t BaudRate;
	uint32_t WordLength;
	uint32_t StopBits;
	uint32_t Parity;
	uint32_t Mode;
	uint32_t HwFlowCtl;
	uint32_t OverSampling;
} UART_InitTypeDef;
typedef struct __UART_HandleTypeDef {
	USART_TypeDef *Instance;
	UART_InitTypeDef Init;
	const uint8_t *pTxBuffPtr;
	uint16_t TxXferSize;
	__IO uint16_t TxXferCount;
	uint8_t *pRxBuffPtr;
	uint16_t RxXferSize;
	__IO uint16_t RxXferCount;
	HAL_LockTypeDef Lock;
	__IO uint32_t ErrorCode;
} UART_HandleTypeDef;
#define UART_WORDLENGTH_8B 0x00000000U
#define UART_STOPBITS_1 0x00000000U
#define UART_PARITY_NONE 0x00000000U
#define UART_MODE_TX_RX 0x0000000CU
#define UART_HWCONTROL_NONE 0x00000000U
#define UART_OVERSAMPLING_16 0x00000000U
#define UART_OVERSAMPLING_8 0x00008000U
HAL_StatusTypeDef HAL_UART_Init(UART_HandleTypeDef *huart);
void HAL_UART_MspInit(UART_HandleTypeDef *huart);
HAL_StatusTypeDef HAL_UART_Transmit(UART_HandleTypeDef *huart, const uint8_t *pData, uint16_t Size, uint32_t Timeout);
HAL_StatusTypeDef HAL_UART_Receive(UART_HandleTypeDef *huart, uint8_t *pData, uint16_t Size, uint32_t Timeout);
#endif
