/*
 * src/main.c
 *
 * UART0 receive interrupt -> FreeRTOS stream buffer -> line reader task.
 *
 * Target : QEMU mps2-an385 (Cortex-M3, 25 MHz), FreeRTOS V11.1.0,
 *          port GCC/ARM_CM3, heap_4.
 *
 * Data flow
 *   - UART0RX_IRQHandler() is the ONLY writer of the stream buffer. It drains
 *     the UART receive register and stores every byte with
 *     xStreamBufferSendFromISR(). Bytes that do not fit are dropped and
 *     counted. If the write unblocked the reader, the handler requests a
 *     context switch with portYIELD_FROM_ISR() so the reader runs as soon as
 *     the interrupt returns.
 *   - prvLineReaderTask() is the ONLY reader of the stream buffer. It blocks
 *     in xStreamBufferReceive() (trigger level 1: woken by any single byte,
 *     no CPU time used while idle), assembles lines and prints them by
 *     polling the UART transmitter. A partial line that receives no new byte
 *     for 200 ms is discarded.
 */

#include <stdint.h>
#include <stddef.h>

#include "FreeRTOS.h"
#include "task.h"
#include "stream_buffer.h"

/* ------------------------------------------------------------------------ */
/* CMSDK APB UART0                                                          */
/* ------------------------------------------------------------------------ */

#define UART0_BASE              0x40004000UL

#define UART0_DATA              (*(volatile uint32_t *) (UART0_BASE + 0x00UL))
#define UART0_STATE             (*(volatile uint32_t *) (UART0_BASE + 0x04UL))
#define UART0_CTRL              (*(volatile uint32_t *) (UART0_BASE + 0x08UL))
#define UART0_INTSTATUS         (*(volatile uint32_t *) (UART0_BASE + 0x0CUL))
#define UART0_INTCLEAR          (*(volatile uint32_t *) (UART0_BASE + 0x0CUL))
#define UART0_BAUDDIV           (*(volatile uint32_t *) (UART0_BASE + 0x10UL))

#define UART_STATE_TX_FULL      (1UL << 0)
#define UART_STATE_RX_FULL      (1UL << 1)

#define UART_CTRL_TX_EN         (1UL << 0)
#define UART_CTRL_RX_EN         (1UL << 1)
#define UART_CTRL_RX_INT_EN     (1UL << 3)

#define UART_INT_RX             (1UL << 1)

#define UART_BAUD_RATE          115200UL
#define UART_BAUDDIV_VALUE      ( ( uint32_t ) configCPU_CLOCK_HZ / UART_BAUD_RATE ) /* 217 */

#if ( ( configCPU_CLOCK_HZ / 115200UL ) < 16UL )
    #error "UART0 BAUDDIV must be at least 16"
#endif

/* ------------------------------------------------------------------------ */
/* NVIC                                                                     */
/* ------------------------------------------------------------------------ */

#define NVIC_ISER0              (*(volatile uint32_t *) 0xE000E100UL)
#define NVIC_ICER0              (*(volatile uint32_t *) 0xE000E180UL)
#define NVIC_ICPR0              (*(volatile uint32_t *) 0xE000E280UL)
#define NVIC_IPR_BYTE(irq)      (*(volatile uint8_t *) (0xE000E400UL + (uint32_t) (irq)))

#define UART0RX_IRQn            0U

/*
 * The handler calls a FromISR API, so its (logical) priority must be equal
 * to or lower than configMAX_SYSCALL_INTERRUPT_PRIORITY, i.e. numerically
 * >= configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY (5) and <= the lowest
 * priority (7). Use the most urgent allowed level, because the UART holds
 * just one received byte.
 */
#define UART0RX_IRQ_PRIORITY    configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY

#if ( UART0RX_IRQ_PRIORITY < configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY ) || \
    ( UART0RX_IRQ_PRIORITY > configLIBRARY_LOWEST_INTERRUPT_PRIORITY )
    #error "UART0 RX interrupt priority is not valid for FreeRTOS FromISR calls"
#endif

#define UART0RX_IRQ_PRIORITY_ENCODED \
    ( ( uint8_t ) ( ( UART0RX_IRQ_PRIORITY << ( 8 - configPRIO_BITS ) ) & 0xFFU ) )

/* ------------------------------------------------------------------------ */
/* Application configuration                                                */
/* ------------------------------------------------------------------------ */

#define RX_STREAM_BUFFER_SIZE       128U   /* bytes of storage */
#define RX_STREAM_TRIGGER_LEVEL     1U     /* wake reader on any byte (1..size) */

#define LINE_MAX_CHARS              64U
#define LINE_TIMEOUT_TICKS          pdMS_TO_TICKS( 200U )

#define READER_RX_CHUNK             32U
#define READER_STACK_WORDS          ( configMINIMAL_STACK_SIZE * 2U )
#define READER_PRIORITY             ( configMAX_PRIORITIES - 1U )

#if ( RX_STREAM_TRIGGER_LEVEL < 1U ) || ( RX_STREAM_TRIGGER_LEVEL > RX_STREAM_BUFFER_SIZE )
    #error "Stream buffer trigger level must be between 1 and the buffer size"
#endif

/* ------------------------------------------------------------------------ */
/* Shared state                                                             */
/* ------------------------------------------------------------------------ */

/* Written once in main() before the UART interrupt is enabled. */
static StreamBufferHandle_t xRxStream = NULL;

/* Bytes dropped because the stream buffer was full (written only by the ISR). */
static volatile uint32_t ulRxDroppedBytes = 0U;

/* ------------------------------------------------------------------------ */
/* UART helpers (transmit is used only by main() before the scheduler and  */
/* by the reader task afterwards, so no locking is needed)                 */
/* ------------------------------------------------------------------------ */

static void prvUartPutChar( char c )
{
    while( ( UART0_STATE & UART_STATE_TX_FULL ) != 0U )
    {
        /* Poll until the transmit buffer has room. */
    }

    UART0_DATA = ( uint32_t ) ( uint8_t ) c;
}

static void prvUartWrite( const char * pcData, size_t xLength )
{
    size_t i;

    for( i = 0U; i < xLength; i++ )
    {
        prvUartPutChar( pcData[ i ] );
    }
}

static void prvUartPuts( const char * pcString )
{
    while( *pcString != '\0' )
    {
        prvUartPutChar( *pcString );
        pcString++;
    }
}

static void prvUartInit( void )
{
    /* Stop the UART while configuring it. */
    UART0_CTRL = 0U;
    UART0_BAUDDIV = UART_BAUDDIV_VALUE;

    /* Discard any stale received byte and clear a stale RX interrupt. */
    while( ( UART0_STATE & UART_STATE_RX_FULL ) != 0U )
    {
        ( void ) UART0_DATA;
    }

    UART0_INTCLEAR = UART_INT_RX;

    /* Transmitter only for now; the receiver and its interrupt are enabled
     * once the stream buffer and the reader exist. */
    UART0_CTRL = UART_CTRL_TX_EN;
}

/* ------------------------------------------------------------------------ */
/* UART0 receive interrupt: the single writer of the stream buffer          */
/* ------------------------------------------------------------------------ */

void UART0RX_IRQHandler( void )
{
    BaseType_t xHigherPriorityTaskWoken = pdFALSE;

    /* Acknowledge first, so that a byte arriving after the drain loop below
     * raises the interrupt again instead of being missed. */
    UART0_INTCLEAR = UART_INT_RX;

    while( ( UART0_STATE & UART_STATE_RX_FULL ) != 0U )
    {
        const uint8_t ucByte = ( uint8_t ) ( UART0_DATA & 0xFFU );

        if( xStreamBufferSendFromISR( xRxStream, &ucByte, 1U,
                                      &xHigherPriorityTaskWoken ) != 1U )
        {
            /* No space: drop the byte and count it. */
            ulRxDroppedBytes++;
        }
    }

    /* Switch to the reader on exit if it was unblocked and has a higher
     * priority than the interrupted task. */
    portYIELD_FROM_ISR( xHigherPriorityTaskWoken );
}

/* ------------------------------------------------------------------------ */
/* Line reader task: the single reader of the stream buffer                 */
/* ------------------------------------------------------------------------ */

static void prvLineReaderTask( void * pvParameters )
{
    char cLine[ LINE_MAX_CHARS ];
    size_t xLineLength = 0U;          /* characters kept in cLine */
    TickType_t xLastByteTick = 0U;    /* when the pending line last grew */
    uint8_t ucRx[ READER_RX_CHUNK ];

    ( void ) pvParameters;

    prvUartPuts( "line reader ready\r\n" );

    for( ; ; )
    {
        TickType_t xWait;
        size_t xReceived;
        size_t i;

        if( xLineLength == 0U )
        {
            /* Nothing pending: sleep until a byte arrives. */
            xWait = portMAX_DELAY;
        }
        else
        {
            /* Partial line pending: wait at most until its deadline. */
            const TickType_t xElapsed = xTaskGetTickCount() - xLastByteTick;

            xWait = ( xElapsed >= LINE_TIMEOUT_TICKS ) ? 0U
                                                       : ( LINE_TIMEOUT_TICKS - xElapsed );
        }

        xReceived = xStreamBufferReceive( xRxStream, ucRx, sizeof( ucRx ), xWait );

        if( xReceived == 0U )
        {
            if( ( xLineLength != 0U ) &&
                ( ( TickType_t ) ( xTaskGetTickCount() - xLastByteTick ) >= LINE_TIMEOUT_TICKS ) )
            {
                /* No new byte for 200 ms: discard the partial line. */
                xLineLength = 0U;
                prvUartPuts( "line timeout\r\n" );
            }

            continue;
        }

        /* New bytes arrived: restart the inactivity timer. */
        xLastByteTick = xTaskGetTickCount();

        for( i = 0U; i < xReceived; i++ )
        {
            const char c = ( char ) ucRx[ i ];

            if( ( c == '\r' ) || ( c == '\n' ) )
            {
                if( xLineLength != 0U )
                {
                    prvUartPuts( "line: " );
                    prvUartWrite( cLine, xLineLength );
                    prvUartPuts( "\r\n" );
                    xLineLength = 0U;
                }
                /* else: empty line (or second half of CR LF), ignored. */
            }
            else if( xLineLength < LINE_MAX_CHARS )
            {
                cLine[ xLineLength ] = c;
                xLineLength++;
            }
            else
            {
                /* Line already holds 64 characters: excess is discarded. */
            }
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                    */
/* ------------------------------------------------------------------------ */

static void prvHalt( const char * pcReason ) __attribute__( ( noreturn ) );

static void prvHalt( const char * pcReason )
{
    /* Interrupts off (the UART RX interrupt is not enabled on this path). */
    taskDISABLE_INTERRUPTS();
    prvUartPuts( pcReason );

    for( ; ; )
    {
        /* Stop here; never start (or continue past) the scheduler. */
    }
}

int main( void )
{
    BaseType_t xCreated;

    prvUartInit();

    /* Make sure the UART0 RX interrupt is disabled and not pending, and give
     * it a priority that is legal for FreeRTOS FromISR calls. */
    NVIC_ICER0 = ( 1UL << UART0RX_IRQn );
    NVIC_ICPR0 = ( 1UL << UART0RX_IRQn );
    NVIC_IPR_BYTE( UART0RX_IRQn ) = UART0RX_IRQ_PRIORITY_ENCODED;

    /* 128 bytes of storage, reader woken by a single byte. */
    xRxStream = xStreamBufferCreate( RX_STREAM_BUFFER_SIZE, RX_STREAM_TRIGGER_LEVEL );

    if( xRxStream == NULL )
    {
        prvHalt( "setup failed: stream buffer\r\n" );
    }

    xCreated = xTaskCreate( prvLineReaderTask,
                            "LineRdr",
                            READER_STACK_WORDS,
                            NULL,
                            READER_PRIORITY,
                            NULL );

    if( xCreated != pdPASS )
    {
        prvHalt( "setup failed: reader task\r\n" );
    }

    /* Everything the handler uses now exists: enable the receiver together
     * with its interrupt (in one write, so no byte can be accepted without
     * raising the interrupt), then enable the interrupt in the NVIC. The
     * FreeRTOS calls above left BASEPRI raised, so the handler cannot run
     * before the scheduler has started. */
    UART0_INTCLEAR = UART_INT_RX;
    UART0_CTRL = UART_CTRL_TX_EN | UART_CTRL_RX_EN | UART_CTRL_RX_INT_EN;
    NVIC_ISER0 = ( 1UL << UART0RX_IRQn );

    vTaskStartScheduler();

    /* Only reached if the idle/timer task could not be created. */
    NVIC_ICER0 = ( 1UL << UART0RX_IRQn );
    UART0_CTRL = UART_CTRL_TX_EN;
    prvHalt( "setup failed: scheduler\r\n" );

    return 0;
}

/* ------------------------------------------------------------------------ */
/* Kernel hooks, defined only if FreeRTOSConfig.h enables them              */
/* ------------------------------------------------------------------------ */

#if defined( configUSE_MALLOC_FAILED_HOOK ) && ( configUSE_MALLOC_FAILED_HOOK == 1 )
void vApplicationMallocFailedHook( void )
{
    taskDISABLE_INTERRUPTS();

    for( ; ; )
    {
    }
}
#endif

#if defined( configCHECK_FOR_STACK_OVERFLOW ) && ( configCHECK_FOR_STACK_OVERFLOW > 0 )
void vApplicationStackOverflowHook( TaskHandle_t xTask, char * pcTaskName )
{
    ( void ) xTask;
    ( void ) pcTaskName;
    taskDISABLE_INTERRUPTS();

    for( ; ; )
    {
    }
}
#endif

#if defined( configUSE_IDLE_HOOK ) && ( configUSE_IDLE_HOOK == 1 )
void vApplicationIdleHook( void )
{
    /* Nothing to do; must not block. */
}
#endif

#if defined( configUSE_TICK_HOOK ) && ( configUSE_TICK_HOOK == 1 )
void vApplicationTickHook( void )
{
    /* Nothing to do. */
}
#endif
