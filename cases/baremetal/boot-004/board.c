/*
 * Board bring-up of boot-004 (hidden test fixture), run by Reset_Handler
 * before the C library is initialised and before the bootloader's main():
 *
 * 1. stamps the CRC-32 of each application image into its header (the build
 *    leaves 0xFFFFFFFF there);
 * 2. reads one command line from UART0 and damages the images as it says;
 * 3. starts the board's interrupt sources that the bootloader must silence
 *    before the hand-over: SysTick (1 ms, interrupt on) and CMSDK timer0
 *    (1 ms period, interrupt on, NVIC line 8 enabled).
 *
 * Command tokens (space separated; X is A or B):
 *   magic:X        flip a bit of the header magic
 *   ver:X=N        set the header version to N (decimal)
 *   len:X=N        set the header length to N (decimal or 0x hex); the CRC
 *                  is recomputed over the new length when N <= 0x100000
 *   crc:X          flip a bit of the last body byte (CRC no longer matches)
 *   tail:X         flip the byte just after the body (inside the slot)
 *   sp:X=N         set vector word 0 (initial SP) to N, CRC recomputed
 *   resetend:X     set the reset vector to (body end | 1), CRC recomputed
 *   resetarm:X     clear bit 0 of the reset vector, CRC recomputed
 * Anything else (e.g. "none") does nothing.
 */
#include <stdint.h>

#define REG(a) (*(volatile uint32_t *)(a))

#define UART0_DATA     0x40004000u
#define UART0_STATE    0x40004004u
#define UART0_CTRL     0x40004008u
#define UART0_BAUDDIV  0x40004010u
#define TIMER0_CTRL    0x40000000u
#define TIMER0_RELOAD  0x40000008u
#define TIMER0_INTCLR  0x4000000Cu
#define SYST_CSR       0xE000E010u
#define SYST_RVR       0xE000E014u
#define SYST_CVR       0xE000E018u
#define NVIC_ISER0     0xE000E100u

#define SLOT_A 0x00100000u
#define SLOT_B 0x00140000u
#define HDR    0x100u

volatile uint32_t board_systicks;
volatile uint32_t board_timer0_ticks;

void SysTick_Handler(void)
{
	board_systicks++;
}

void TIMER0_Handler(void)
{
	REG(TIMER0_INTCLR) = 1u;
	board_timer0_ticks++;
}

static uint32_t crc32(const uint8_t *p, uint32_t n)
{
	uint32_t crc = 0xFFFFFFFFu;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++) {
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
		}
	}
	return ~crc;
}

static uint32_t *hdr_of(char s)
{
	return (uint32_t *)(uintptr_t)(s == 'A' ? SLOT_A : SLOT_B);
}

static void restamp(uint32_t *h)
{
	if (h[2] <= 0x100000u) {
		h[3] = crc32((const uint8_t *)h + HDR, h[2]);
	}
}

static int starts(const char *s, const char *p)
{
	while (*p) {
		if (*s++ != *p++) {
			return 0;
		}
	}
	return 1;
}

static uint32_t number(const char *s)
{
	uint32_t v = 0;
	if (s[0] == '0' && s[1] == 'x') {
		for (s += 2; *s; s++) {
			char c = *s;
			v = v * 16u + (uint32_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
		}
	} else {
		for (; *s; s++) {
			v = v * 10u + (uint32_t)(*s - '0');
		}
	}
	return v;
}

static void apply(const char *t)
{
	const char *colon = t;
	while (*colon && *colon != ':') {
		colon++;
	}
	if (*colon != ':' || (colon[1] != 'A' && colon[1] != 'B')) {
		return;
	}
	uint32_t *h = hdr_of(colon[1]);
	uint8_t *body = (uint8_t *)h + HDR;
	uint32_t *vec = (uint32_t *)(void *)body;
	const char *arg = (colon[2] == '=') ? colon + 3 : "";

	if (starts(t, "magic:")) {
		h[0] ^= 0x00010000u;
	} else if (starts(t, "ver:")) {
		h[1] = number(arg);
	} else if (starts(t, "len:")) {
		h[2] = number(arg);
		restamp(h);
	} else if (starts(t, "crc:")) {
		body[h[2] - 1u] ^= 0x01u;
	} else if (starts(t, "tail:")) {
		body[h[2]] ^= 0xFFu;
	} else if (starts(t, "sp:")) {
		vec[0] = number(arg);
		restamp(h);
	} else if (starts(t, "resetend:")) {
		vec[1] = ((uint32_t)(uintptr_t)body + h[2]) | 1u;
		restamp(h);
	} else if (starts(t, "resetarm:")) {
		vec[1] &= ~1u;
		restamp(h);
	}
}

void board_init(void)
{
	char line[96];
	unsigned n = 0;

	restamp(hdr_of('A'));
	restamp(hdr_of('B'));

	REG(UART0_BAUDDIV) = 217u;
	REG(UART0_CTRL) = 0x3u; /* TX and RX enable */
	for (;;) {
		while ((REG(UART0_STATE) & 0x2u) == 0u) {
		}
		char c = (char)(REG(UART0_DATA) & 0xFFu);
		if (c == '\n' || c == '\r') {
			break;
		}
		if (n < sizeof(line) - 1u) {
			line[n++] = c;
		}
	}
	line[n] = '\0';

	for (unsigned i = 0; i < n;) {
		while (i < n && line[i] == ' ') {
			line[i++] = '\0';
		}
		unsigned start = i;
		while (i < n && line[i] != ' ') {
			i++;
		}
		if (i < n) {
			line[i++] = '\0';
		}
		if (start < n) {
			apply(&line[start]);
		}
	}

	REG(TIMER0_RELOAD) = 24999u;
	REG(TIMER0_CTRL) = 0x9u; /* enable, interrupt enable */
	REG(NVIC_ISER0) = 1u << 8;
	REG(SYST_RVR) = 24999u;
	REG(SYST_CVR) = 0u;
	REG(SYST_CSR) = 0x7u; /* processor clock, interrupt, enable */
}
