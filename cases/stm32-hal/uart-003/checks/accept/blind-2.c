/*
 * NUCLEO-F401RE - USART2 (VCP) echo with idle-line DMA reception.
 * STM32CubeF4 HAL, SysTick time base, core on the reset-default HSI.
 *
 *   USART2: 115200 8N1, no flow control, PA2 = TX / PA3 = RX (AF7)
 *   RX    : DMA1 Stream 5 channel 4, circular, 64-byte buffer,
 *           HAL_UARTEx_ReceiveToIdle_DMA(), half-transfer IRQ disabled
 *   FIFO  : 256 bytes, filled in HAL_UARTEx_RxEventCallback(), drained
 *           by the main loop which echoes with HAL_UART_Transmit().
 */
#include <stdint.h>
#include "stm32f4xx_hal.h"

#define DMA_RX_LEN    64U
#define FIFO_LEN      256U

UART_HandleTypeDef huart2;
DMA_HandleTypeDef  hdma_usart2_rx;

static uint8_t dma_rx[DMA_RX_LEN];
static uint32_t dma_rd;                       /* consumed position, 0..DMA_RX_LEN */

static volatile uint8_t  fifo[FIFO_LEN];
static volatile uint16_t fifo_wr;             /* 0..FIFO_LEN-1, producer: ISR  */
static volatile uint16_t fifo_rd;             /* 0..FIFO_LEN-1, consumer: main */
static volatile uint16_t fifo_cnt_in;         /* bytes ever pushed  (mod 2^16)  */
static volatile uint16_t fifo_cnt_out;        /* bytes ever popped  (mod 2^16)  */
volatile uint32_t fifo_overflow_count;

static volatile uint8_t rx_restart_needed;

void Error_Handler(void)
{
  __disable_irq();
  for (;;)
  {
  }
}

void SysTick_Handler(void)
{
  HAL_IncTick();
}

void DMA1_Stream5_IRQHandler(void)
{
  HAL_DMA_IRQHandler(huart2.hdmarx);
}

void USART2_IRQHandler(void)
{
  HAL_UART_IRQHandler(&huart2);
}

/* Called from interrupt context only. */
static void fifo_push(const uint8_t *src, uint32_t n)
{
  while (n-- > 0U)
  {
    if ((uint16_t)(fifo_cnt_in - fifo_cnt_out) >= FIFO_LEN)
    {
      fifo_overflow_count++;
      src++;
      continue;
    }
    fifo[fifo_wr] = *src++;
    fifo_wr = (uint16_t)((fifo_wr + 1U) % FIFO_LEN);
    fifo_cnt_in++;
  }
}

/* Called from thread mode only; returns number of bytes copied. */
static uint32_t fifo_pop(uint8_t *dst, uint32_t max)
{
  uint32_t n = 0U;

  while ((n < max) && (fifo_cnt_out != fifo_cnt_in))
  {
    dst[n++] = fifo[fifo_rd];
    fifo_rd = (uint16_t)((fifo_rd + 1U) % FIFO_LEN);
    fifo_cnt_out++;
  }
  return n;
}

static HAL_StatusTypeDef rx_start(void)
{
  HAL_StatusTypeDef st;

  dma_rd = 0U;
  st = HAL_UARTEx_ReceiveToIdle_DMA(&huart2, dma_rx, DMA_RX_LEN);
  if (st == HAL_OK)
  {
    /* Only transfer-complete (wrap) and idle events are wanted. */
    __HAL_DMA_DISABLE_IT(&hdma_usart2_rx, DMA_IT_HT);
  }
  return st;
}

void HAL_UARTEx_RxEventCallback(UART_HandleTypeDef *huart, uint16_t Size)
{
  uint32_t pos;

  if (huart->Instance != USART2)
  {
    return;
  }

  pos = (Size > DMA_RX_LEN) ? DMA_RX_LEN : Size;

  if (HAL_UARTEx_GetRxEventType(huart) == HAL_UART_RXEVENT_TC)
  {
    /* DMA reached the end of the buffer: everything from dma_rd to the end
     * is new.  dma_rd == DMA_RX_LEN means the previous event was also at the
     * end, i.e. a full new lap of the buffer has been received since. */
    if (dma_rd >= DMA_RX_LEN)
    {
      dma_rd = 0U;
    }
    fifo_push(&dma_rx[dma_rd], DMA_RX_LEN - dma_rd);
    dma_rd = DMA_RX_LEN;
    return;
  }

  /* Idle (or half transfer, if ever enabled): pos is the DMA write index. */
  if (pos == dma_rd)
  {
    return;                                   /* nothing new */
  }
  if (pos < dma_rd)
  {
    fifo_push(&dma_rx[dma_rd], DMA_RX_LEN - dma_rd);   /* up to the end */
    dma_rd = 0U;
  }
  fifo_push(&dma_rx[dma_rd], pos - dma_rd);
  dma_rd = pos;
}

void HAL_UART_ErrorCallback(UART_HandleTypeDef *huart)
{
  if (huart->Instance != USART2)
  {
    return;
  }

  /* ORE/FE/NE/PE with DMA reception: the HAL has aborted the Rx DMA.
   * Try to re-arm right here; let the main loop retry if that fails. */
  if (rx_start() != HAL_OK)
  {
    rx_restart_needed = 1U;
  }
}

void HAL_UART_MspInit(UART_HandleTypeDef *huart)
{
  GPIO_InitTypeDef io = {0};

  if (huart->Instance == USART2)
  {
    __HAL_RCC_DMA1_CLK_ENABLE();
    __HAL_RCC_GPIOA_CLK_ENABLE();
    __HAL_RCC_USART2_CLK_ENABLE();

    io.Pin       = GPIO_PIN_2;                /* TX */
    io.Mode      = GPIO_MODE_AF_PP;
    io.Pull      = GPIO_NOPULL;
    io.Speed     = GPIO_SPEED_FREQ_HIGH;
    io.Alternate = GPIO_AF7_USART2;
    HAL_GPIO_Init(GPIOA, &io);

    io.Pin       = GPIO_PIN_3;                /* RX */
    io.Pull      = GPIO_PULLUP;
    HAL_GPIO_Init(GPIOA, &io);

    hdma_usart2_rx.Instance                 = DMA1_Stream5;
    hdma_usart2_rx.Init.Channel             = DMA_CHANNEL_4;
    hdma_usart2_rx.Init.Direction           = DMA_PERIPH_TO_MEMORY;
    hdma_usart2_rx.Init.PeriphInc           = DMA_PINC_DISABLE;
    hdma_usart2_rx.Init.MemInc              = DMA_MINC_ENABLE;
    hdma_usart2_rx.Init.PeriphDataAlignment = DMA_PDATAALIGN_BYTE;
    hdma_usart2_rx.Init.MemDataAlignment    = DMA_MDATAALIGN_BYTE;
    hdma_usart2_rx.Init.Mode                = DMA_CIRCULAR;
    hdma_usart2_rx.Init.Priority            = DMA_PRIORITY_MEDIUM;
    hdma_usart2_rx.Init.FIFOMode            = DMA_FIFOMODE_DISABLE;
    hdma_usart2_rx.Init.FIFOThreshold       = DMA_FIFO_THRESHOLD_FULL;
    hdma_usart2_rx.Init.MemBurst            = DMA_MBURST_SINGLE;
    hdma_usart2_rx.Init.PeriphBurst         = DMA_PBURST_SINGLE;
    if (HAL_DMA_Init(&hdma_usart2_rx) != HAL_OK)
    {
      Error_Handler();
    }
    __HAL_LINKDMA(huart, hdmarx, hdma_usart2_rx);

    HAL_NVIC_SetPriority(DMA1_Stream5_IRQn, 6U, 0U);
    HAL_NVIC_EnableIRQ(DMA1_Stream5_IRQn);
    HAL_NVIC_SetPriority(USART2_IRQn, 6U, 0U);
    HAL_NVIC_EnableIRQ(USART2_IRQn);
  }
}

int main(void)
{
  uint8_t  chunk[32];
  uint32_t n;

  if (HAL_Init() != HAL_OK)
  {
    Error_Handler();
  }

  huart2.Instance          = USART2;
  huart2.Init.BaudRate     = 115200U;
  huart2.Init.WordLength   = UART_WORDLENGTH_8B;
  huart2.Init.StopBits     = UART_STOPBITS_1;
  huart2.Init.Parity       = UART_PARITY_NONE;
  huart2.Init.Mode         = UART_MODE_TX_RX;
  huart2.Init.HwFlowCtl    = UART_HWCONTROL_NONE;
  huart2.Init.OverSampling = UART_OVERSAMPLING_16;
  if (HAL_UART_Init(&huart2) != HAL_OK)
  {
    Error_Handler();
  }

  if (rx_start() != HAL_OK)
  {
    Error_Handler();
  }

  for (;;)
  {
    if (rx_restart_needed != 0U)
    {
      HAL_StatusTypeDef st;

      HAL_NVIC_DisableIRQ(USART2_IRQn);
      HAL_NVIC_DisableIRQ(DMA1_Stream5_IRQn);
      rx_restart_needed = 0U;
      (void)HAL_UART_AbortReceive(&huart2);
      st = rx_start();
      HAL_NVIC_EnableIRQ(DMA1_Stream5_IRQn);
      HAL_NVIC_EnableIRQ(USART2_IRQn);
      if (st != HAL_OK)
      {
        Error_Handler();
      }
    }

    n = fifo_pop(chunk, sizeof(chunk));
    if (n > 0U)
    {
      (void)HAL_UART_Transmit(&huart2, chunk, (uint16_t)n, 100U);
    }
  }
}
