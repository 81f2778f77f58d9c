package checks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// addrCases runs c.address calls (the arguments after code) on one code
// string and compares their reprs.
func addrCases(t *testing.T, code string, cases map[string]string) {
	t.Helper()
	for args, want := range cases {
		require.Equal(t, want, evalExpr(t, "c.address(code, "+args+")", code), args)
	}
}

func TestAddressCasts(t *testing.T) {
	code := `
#define NVIC_ISER0 (*(volatile uint32_t *)0xE000E100UL)
#define PERIPH_BASE 0x40000000UL
#define REG32(addr) (*(volatile uint32_t *)(addr))
#define REG16(addr) (*(volatile uint16_t *)(addr))
#define TIMER_CTRL REG32(PERIPH_BASE + 0x08)
#define BROKEN(x (x + 1)
#define LOOP_A LOOP_B
#define LOOP_B LOOP_A
#define SELF (*(volatile uint32_t *)SELF)
#define OFFSET (4 * 2)
enum { CH2 = 2 };
void f(void) {
    int k = 3;
    NVIC_ISER0 = 1;
}
`
	addrCases(t, code, map[string]string{
		`"*(volatile uint32_t *)0xE000E100UL"`:                      "3758153984",
		`"(*(volatile uint32_t *)0xE000E100UL)"`:                    "3758153984",
		`"*(volatile uint32_t *)0xE000E104UL"`:                      "3758153988",
		`"NVIC_ISER0"`:                                              "3758153984",
		`"REG32(PERIPH_BASE + 0x08)"`:                               "1073741832",
		`"REG32(PERIPH_BASE + OFFSET)"`:                             "1073741832",
		`"REG16(PERIPH_BASE + 2 * CH2)"`:                            "1073741828",
		`"TIMER_CTRL"`:                                              "1073741832",
		`"*((volatile uint32_t *)PERIPH_BASE + 2)"`:                 "1073741832",
		`"*(volatile uint32_t *)((uint32_t)&TIMER_CTRL + 4)"`:       "1073741836",
		`"*(volatile uint32_t *)(PERIPH_BASE + k)", function = "f"`: "1073741827",
		// None: not an lvalue, a register read, unknown names, broken macros.
		`"(volatile uint32_t *)0xE000E100UL"`:                 "None",
		`"0xE000E100UL"`:                                      "None",
		`"*(volatile uint32_t *)NVIC_ISER0"`:                  "None",
		`"*(volatile uint32_t *)(PERIPH_BASE + unknown_var)"`: "None",
		`"*(volatile uint32_t *)BROKEN(1)"`:                   "None",
		`"*(volatile uint32_t *)LOOP_A"`:                      "None",
		`"SELF"`:                                              "None",
		`"*(volatile void *)0x1000"`:                          "None",
		`"*(reg_t *)0x1000"`:                                  "None",
		`"REG32(PERIPH_BASE + 8)", function = "nosuch"`:       "None",
		`""`: "None",
	})
}

func TestAddressArrays(t *testing.T) {
	code := `
#define NVIC_ISER ((volatile uint32_t *)0xE000E100)
#define GPIO_ODR ((volatile uint16_t *)0x48000014u)
#define NCH 4
typedef uint32_t word_t;
void f(int sel) {
    int i = 2;
    int j = sel;
    NVIC_ISER[i] = 1;
}
`
	addrCases(t, code, map[string]string{
		`"((volatile uint32_t *)0x40004000u)[3]"`:     "1073758220",
		`"((volatile uint32_t *)0x40004000u)[0]"`:     "1073758208",
		`"((volatile uint8_t *)0x40004000u)[3]"`:      "1073758211",
		`"((volatile word_t *)0x40004000u)[NCH - 1]"`: "1073758220",
		`"NVIC_ISER[1]"`:                               "3758153988",
		`"GPIO_ODR[1]"`:                                "1207959574",
		`"NVIC_ISER[i]", function = "f"`:               "3758153992",
		`"NVIC_ISER[i + 1]", function = "f", line = 9`: "3758153996",
		`"NVIC_ISER[sizeof(uint32_t)]"`:                "3758154000",
		`"NVIC_ISER[j]", function = "f"`:               "None",
		`"NVIC_ISER[i]"`:                               "None",
		`"NVIC_ISER[1][2]"`:                            "None",
		`"((volatile unknown_t *)0x40004000u)[3]"`:     "None",
	})
}

const uartCode = `
#include <stdint.h>
typedef struct {
    volatile uint32_t DATA;
    volatile uint32_t STATE;
    volatile uint32_t CTRL;
    union {
        volatile uint32_t INTSTATUS;
        volatile uint32_t INTCLEAR;
    };
    volatile uint32_t BAUDDIV;
} cmsdk_uart_t;
#define UART0 ((cmsdk_uart_t *)0x40004000UL)
#define UART1 ((cmsdk_uart_t *)0x40005000UL)

typedef struct {
    __IO uint32_t CCR;
    __I  uint16_t CNT;
    uint16_t RESERVED0;
} timer_ch_t;
struct timer_regs {
    __IOM uint32_t CR1;
    __O uint8_t  FLAG;
    uint8_t  RESERVED[11];
    timer_ch_t CH[4];
    __IM uint64_t STAMP;
    uint8_t  TAIL;
};
typedef struct timer_regs timer_t;
#define TIMER ((timer_t *)0x40010000UL)
#define TIMER_S ((struct timer_regs *)0x40010000UL)

typedef struct {
    uint32_t EN : 1;
    uint32_t MODE : 3;
    uint32_t AFTER;
} bits_t;
#define BITS ((bits_t *)0x40020000UL)

typedef struct __attribute__((packed)) {
    uint8_t A;
    uint32_t B;
} packed_t;
#define PACKED ((packed_t *)0x40030000UL)

typedef struct {
    uint8_t A;
    uint32_t B __attribute__((aligned(8)));
} aligned_t;
#define ALIGNED ((aligned_t *)0x40040000UL)

typedef struct {
    uint32_t CR;
    MYSTERY_T M;
    uint32_t AFTER;
} mystery_t;
#define MYST ((mystery_t *)0x40050000UL)
#define NOSTRUCT ((nosuch_t *)0x40060000UL)

static volatile cmsdk_uart_t *const uart0 = (cmsdk_uart_t *)0x40004000u;
static cmsdk_uart_t *uart_any;
static timer_t *const tim = TIMER;
static volatile uint32_t *const ctrl = &UART0->CTRL;
static cmsdk_uart_t **indirect;

static void uart_write(cmsdk_uart_t *u, char c) { u->DATA = (uint32_t)c; }
static void uart_both(cmsdk_uart_t *u) { u->CTRL = 1; }

void uart_init(int sel) {
    cmsdk_uart_t *local = UART1;
    volatile cmsdk_uart_t *moved = UART0;
    moved->CTRL = 1;
    moved = UART1;
    moved->CTRL = 2;
    uart_any = sel ? UART0 : UART1;
    uart_write(UART0, 'a');
    uart_write((cmsdk_uart_t *)0x40004000UL, 'b');
    uart_both(UART0);
    uart_both(UART1);
    local->BAUDDIV = 16;
}
void regs(void) {
    volatile uint32_t *r = (volatile uint32_t *)0x1000;
    *r = 1;
    r = (volatile uint32_t *)0x2000;
    *r = 2;
}
void regs_inc(void) {
    volatile uint32_t *q = (volatile uint32_t *)0x1000;
    q++;
    *q = 1;
}
`

func TestAddressStructs(t *testing.T) {
	addrCases(t, uartCode, map[string]string{
		`"UART0->CTRL"`:              "1073758216",
		`"UART0->DATA"`:              "1073758208",
		`"UART1->CTRL"`:              "1073762312",
		`"(*UART0).CTRL"`:            "1073758216",
		`"UART0->INTCLEAR"`:          "1073758220",
		`"UART0->INTSTATUS"`:         "1073758220",
		`"UART0->BAUDDIV"`:           "1073758224",
		`"UART0[1].DATA"`:            "1073758228",
		`"TIMER->CR1"`:               "1073807360",
		`"TIMER->FLAG"`:              "1073807364",
		`"TIMER->RESERVED[3]"`:       "1073807368",
		`"TIMER->CH[0].CCR"`:         "1073807376",
		`"TIMER->CH[2].CCR"`:         "1073807392",
		`"TIMER->CH[2].CNT"`:         "1073807396",
		`"TIMER_S->CH[3].RESERVED0"`: "1073807406",
		`"TIMER->STAMP"`:             "1073807408",
		`"TIMER->TAIL"`:              "1073807416",
		`"TIMER[1].CR1"`:             "1073807424",
		`"PACKED->B"`:                "1073938433",
		`"BITS->EN"`:                 "None",
		`"BITS->AFTER"`:              "None",
		`"ALIGNED->B"`:               "None",
		`"ALIGNED->A"`:               "1074003968",
		`"MYST->CR"`:                 "1074069504",
		`"MYST->AFTER"`:              "None",
		`"NOSTRUCT->CR"`:             "None",
		`"UART0->NOPE"`:              "None",
		`"UART0.CTRL"`:               "None",
		`"UART0->CTRL.X"`:            "None",
		`"TIMER->CH[5].CCR"`:         "1073807416",
	})
}

func TestAddressThroughVariables(t *testing.T) {
	addrCases(t, uartCode, map[string]string{
		`"uart0->CTRL"`:                         "1073758216",
		`"uart0->CTRL", function = "uart_init"`: "1073758216",
		`"tim->CH[1].CCR"`:                      "1073807384",
		`"*ctrl"`:                               "1073758216",
		`"ctrl[1]"`:                             "1073758220",
		`"local->BAUDDIV", function = "uart_init"`: "1073762320",
		`"u->DATA", function = "uart_write"`:       "1073758208",
		// Stores that disagree are followed only where c.eval_int reads
		// them (casts to integer pointer types).
		`"moved->CTRL", function = "uart_init"`: "None",
		`"*r", function = "regs", line = 84`:    "4096",
		`"*r", function = "regs", line = 86`:    "8192",
		`"r[1]", function = "regs", line = 86`:  "8196",
		`"*r", function = "regs"`:               "8192",
		`"*q", function = "regs_inc"`:           "None",
		`"u->CTRL", function = "uart_both"`:     "None",
		`"uart_any->CTRL"`:                      "None",
		`"local->BAUDDIV"`:                      "None",
		`"(*indirect)->CTRL"`:                   "None",
		`"u->DATA"`:                             "None",
	})
}

func TestAddressUnknowns(t *testing.T) {
	code := `
typedef struct { uint32_t A; uint32_t B; } plain_t;
typedef union { uint32_t W; uint8_t B[4]; } word_u;
typedef struct { uint8_t X; word_u U; } holder_t;
typedef struct node { struct node *next; uint32_t V; } node_t;
#pragma pack(push, 1)
typedef struct { uint8_t A; uint32_t B; } pragma_t;
#pragma pack(pop)
typedef struct { uint8_t A; uint32_t B; } after_pragma_t;
static plain_t *p1 = (plain_t *)0x1000;
static plain_t *p2;
static plain_t *loop_a;
static plain_t *loop_b;
void f(void) {
    p2 = (plain_t *)0x2000;
    p2 = (plain_t *)0x3000;
    loop_a = loop_b;
    loop_b = loop_a;
    plain_t s;
    s.A = 1;
}
`
	addrCases(t, code, map[string]string{
		`"((plain_t *)0x1000)->B"`:        "4100",
		`"((pragma_t *)0x1000)->B"`:       "None",
		`"((after_pragma_t *)0x1000)->B"`: "None",
		`"((holder_t *)0x1000)->U.B[2]"`:  "4102",
		`"((holder_t *)0x1000)->U.W"`:     "4100",
		`"((node_t *)0x1000)->next->V"`:   "None",
		`"((node_t *)0x1000)->V"`:         "4100",
		`"p1->B"`:                         "4100",
		`"p2->B"`:                         "None",
		`"loop_a->B"`:                     "None",
		`"s.A", function = "f"`:           "None",
		`"*(plain_t *)0x1000"`:            "4096",
		`"((plain_t *)0x1000)->B(1)"`:     "None",
		`"((plain_t *)0x1000)->B++"`:      "None",
	})
}

// TestAddressLargeFile checks that a generated file of 5,000 functions and
// 2,000 structs is answered within the default limits (the time is logged,
// not asserted).
func TestAddressLargeFile(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "typedef struct { __IO uint32_t CR%d; uint32_t PAD[%d]; __IO uint16_t SR; } periph%d_t;\n", i, i%7, i)
		fmt.Fprintf(&b, "#define P%d ((periph%d_t *)(0x40000000UL + %d * 0x400UL))\n", i, i, i)
	}
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "void fn%d(void) { P%d->SR = %d; }\n", i, i%2000, i)
	}
	code := b.String()
	start := time.Now()
	got := evalExprWithin(t, 60*time.Second, `c.address(code, "P1999->SR", function = "fn4999")`, code)
	t.Logf("c.address on %d bytes: %v", len(code), time.Since(start))
	// periph1999_t: CR 4 bytes, PAD[1999 % 7 = 4] 16 bytes, SR at 20.
	require.Equal(t, fmt.Sprint(0x40000000+1999*0x400+20), got)
}
