/* defect: When the DMA position has wrapped (pos < last position) only the bytes up to the end of the 64-byte buffer are copied; the bytes already written at the start of the buffer (0..pos) are skipped and lost.
 * breaks: "No byte may be delivered twice or lost while the FIFO has room, including when the DMA position passes the end of the 64-byte buffer."
 * must_fail: rx_event_handles_wraparound
 */
/*
 * main.c - NUCLEO-F401RE, STM32CubeF4 HAL
 *
 * USART2 (ST-LINK VCP, PA2 = TX, PA3 = RX, AF7) at 115200 8N1.
 * Reception: HAL_UARTEx_ReceiveToIdle_DMA on a circular DMA1 Stream 5 /
 * channel 4 into a 64-byte buffer.  Every Rx event moves the bytes that
 * arrived since the previous event into a 256-byte FIFO; the main loop
 * echoes the FIFO content back with a blocking transmit.
 */
#include <stdint.h>
#include "stm32f4xx_hal.h"

#define RX_DMA_BUF_SIZE   64U
#define RX_FIFO_SIZE      256U              /* power of two */
#define RX_FIFO_MASK      (RX_FIFO_SIZE - 1U)

UART_HandleTypeDef huart2;
DMA_HandleTypeDef  hdma_usart2_rx;

/* Buffer the DMA cycles through. */
static uint8_t rx_dma_buf[RX_DMA_BUF_SIZE];
/* Position in rx_dma_buf up to which data has already been consumed (0..64).
 * Only touched from the USART2 / DMA1_Stream5 interrupts (same priority). */
static uint16_t rx_last_pos;

/* Application FIFO: single producer (interrupt), single consumer (main). */
static uint8_t           rx_fifo[RX_FIFO_SIZE];
static volatile uint32_t rx_fifo_head;      /* written by the interrupt only */
static volatile uint32_t rx_fifo_tail;      /* written by main only          */
volatile uint32_t        rx_dropped;        /* bytes lost because FIFO full  */

void Error_Handler(void);
static void MX_USART2_UART_Init(void);
static void uart_rx_start(void);

/* ------------------------------------------------------------------------ */
/* Interrupt vectors                                                         */
/* ------------------------------------------------------------------------ */
void SysTick_Handler(void)
{
  HAL_IncTick();
}

void USART2_IRQHandler(void)
{
  HAL_UART_IRQHandler(&huart2);
}

void DMA1_Stream5_IRQHandler(void)
{
  HAL_DMA_IRQHandler(&hdma_usart2_rx);
}

/* ------------------------------------------------------------------------ */
/* FIFO                                                                      */
/* ------------------------------------------------------------------------ */
static void fifo_put_block(const uint8_t *data, uint32_t len)
{
  uint32_t head = rx_fifo_head;
  uint32_t i;

  for (i = 0U; i < len; i++)
  {
    if ((head - rx_fifo_tail) >= RX_FIFO_SIZE)
    {
      rx_dropped++;                     /* full: drop and count */
    }
    else
    {
      rx_fifo[head & RX_FIFO_MASK] = data[i];
      head++;
    }
  }
  __DMB();                              /* data visible before the new head */
  rx_fifo_head = head;
}

static int fifo_get(uint8_t *out)
{
  uint32_t tail = rx_fifo_tail;

  if (tail == rx_fifo_head)
  {
    return 0;
  }
  *out = rx_fifo[tail & RX_FIFO_MASK];
  __DMB();                              /* byte read before the slot is freed */
  rx_fifo_tail = tail + 1U;
  return 1;
}

/* ------------------------------------------------------------------------ */
/* HAL callbacks                                                             */
/* ------------------------------------------------------------------------ */

/*
 * Size is the current write position of the DMA inside rx_dma_buf
 * (1..64; 32 on half transfer, 64 on transfer complete, anything on idle).
 * The half-transfer event is kept enabled on purpose: together with the
 * transfer-complete event it guarantees that at most 32 bytes arrive between
 * two callbacks, so "pos == rx_last_pos" always means "nothing new" (e.g. an
 * idle event reported right after a transfer-complete event at position 64).
 */
void HAL_UARTEx_RxEventCallback(UART_HandleTypeDef *huart, uint16_t Size)
{
  uint16_t pos;

  if (huart->Instance != USART2)
  {
    return;
  }

  pos = Size;
  if (pos > RX_DMA_BUF_SIZE)
  {
    pos = RX_DMA_BUF_SIZE;
  }

  if (pos != rx_last_pos)
  {
    if (pos > rx_last_pos)
    {
      /* Linear: new data between last position and current one. */
      fifo_put_block(&rx_dma_buf[rx_last_pos], (uint32_t)pos - rx_last_pos);
    }
    else
    {
      /* DMA wrapped: take the rest of the buffer. */
      fifo_put_block(&rx_dma_buf[rx_last_pos],
                     (uint32_t)RX_DMA_BUF_SIZE - rx_last_pos);
    }
    rx_last_pos = pos;
  }
}

void HAL_UART_ErrorCallback(UART_HandleTypeDef *huart)
{
  if (huart->Instance != USART2)
  {
    return;
  }

  /*
   * In DMA mode the HAL treats every Rx error (ORE/FE/NE/PE) as blocking:
   * the Rx DMA has been aborted and RxState is READY again.  Restart the
   * reception from the beginning of the buffer.
   */
  uart_rx_start();
}

/* ------------------------------------------------------------------------ */
/* MSP: clocks, pins, DMA, NVIC                                              */
/* ------------------------------------------------------------------------ */
void HAL_UART_MspInit(UART_HandleTypeDef *huart)
{
  GPIO_InitTypeDef gpio = {0};

  if (huart->Instance != USART2)
  {
    return;
  }

  __HAL_RCC_USART2_CLK_ENABLE();
  __HAL_RCC_GPIOA_CLK_ENABLE();
  __HAL_RCC_DMA1_CLK_ENABLE();

  /* PA2 = USART2_TX, PA3 = USART2_RX */
  gpio.Pin       = GPIO_PIN_2 | GPIO_PIN_3;
  gpio.Mode      = GPIO_MODE_AF_PP;
  gpio.Pull      = GPIO_PULLUP;
  gpio.Speed     = GPIO_SPEED_FREQ_VERY_HIGH;
  gpio.Alternate = GPIO_AF7_USART2;
  HAL_GPIO_Init(GPIOA, &gpio);

  /* USART2_RX: DMA1 Stream 5, channel 4, circular */
  hdma_usart2_rx.Instance                 = DMA1_Stream5;
  hdma_usart2_rx.Init.Channel             = DMA_CHANNEL_4;
  hdma_usart2_rx.Init.Direction           = DMA_PERIPH_TO_MEMORY;
  hdma_usart2_rx.Init.PeriphInc           = DMA_PINC_DISABLE;
  hdma_usart2_rx.Init.MemInc              = DMA_MINC_ENABLE;
  hdma_usart2_rx.Init.PeriphDataAlignment = DMA_PDATAALIGN_BYTE;
  hdma_usart2_rx.Init.MemDataAlignment    = DMA_MDATAALIGN_BYTE;
  hdma_usart2_rx.Init.Mode                = DMA_CIRCULAR;
  hdma_usart2_rx.Init.Priority            = DMA_PRIORITY_HIGH;
  hdma_usart2_rx.Init.FIFOMode            = DMA_FIFOMODE_DISABLE;
  if (HAL_DMA_Init(&hdma_usart2_rx) != HAL_OK)
  {
    Error_Handler();
  }
  __HAL_LINKDMA(huart, hdmarx, hdma_usart2_rx);

  /* Same priority: the Rx event callbacks never preempt each other. */
  HAL_NVIC_SetPriority(DMA1_Stream5_IRQn, 5U, 0U);
  HAL_NVIC_EnableIRQ(DMA1_Stream5_IRQn);
  HAL_NVIC_SetPriority(USART2_IRQn, 5U, 0U);
  HAL_NVIC_EnableIRQ(USART2_IRQn);
}

static void MX_USART2_UART_Init(void)
{
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
}

static void uart_rx_start(void)
{
  rx_last_pos = 0U;
  if (HAL_UARTEx_ReceiveToIdle_DMA(&huart2, rx_dma_buf, RX_DMA_BUF_SIZE) != HAL_OK)
  {
    Error_Handler();
  }
  /* Half-transfer, transfer-complete and idle events all go through
   * HAL_UARTEx_RxEventCallback(), which handles any position. */
}

int main(void)
{
  uint8_t ch;

  if (HAL_Init() != HAL_OK)
  {
    Error_Handler();
  }
  /* System clock stays at the reset default (HSI 16 MHz). */

  MX_USART2_UART_Init();
  uart_rx_start();

  while (1)
  {
    while (fifo_get(&ch) != 0)
    {
      (void)HAL_UART_Transmit(&huart2, &ch, 1U, 100U);
    }
    __WFI();
  }
}

void Error_Handler(void)
{
  __disable_irq();
  while (1)
  {
  }
}

#ifdef USE_FULL_ASSERT
void assert_failed(uint8_t *file, uint32_t line)
{
  (void)file;
  (void)line;
  Error_Handler();
}
#endif
