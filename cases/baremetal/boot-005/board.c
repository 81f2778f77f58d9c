/*
 * Board bring-up of boot-005 (hidden test fixture), run by Reset_Handler on
 * every boot before the C library is initialised.
 *
 * Its own word pair at 0x203FFF00 (no-init RAM, zero at power-on) tells the
 * first boot after power-on from the later ones.
 * - First boot: reads one command line from UART0 and seeds the boot record
 *   at 0x203FF000 (words magic, boot_count, check) as if earlier firmware
 *   had left it:
 *     cold       nothing (RAM is zero at power-on)
 *     warm N     a valid record with boot_count N
 *     badcheck N magic right, boot_count N, check wrong
 *     badmagic N magic wrong, check computed from it and N
 *     garbage    0xDEADBEEF in every word
 * - Every boot: starts timer0 (CMSDK APB timer, no interrupt). A real system
 *   reset stops it again; finding it still running on a later boot means the
 *   firmware restarted itself without a system reset: the run ends with
 *   status 3. More than 20 boots end the run with status 4.
 */
#include <stdint.h>

#define REG(a) (*(volatile uint32_t *)(a))

#define UART0_DATA    0x40004000u
#define UART0_STATE   0x40004004u
#define UART0_CTRL    0x40004008u
#define UART0_BAUDDIV 0x40004010u
#define TIMER0_CTRL   0x40000000u
#define TIMER0_RELOAD 0x40000008u

#define RECORD ((volatile uint32_t *)0x203FF000u)
#define MARK   ((volatile uint32_t *)0x203FFF00u)
#define MARK_MAGIC 0xF1C5DA7Au
#define RECORD_MAGIC 0x5EC0B007u

static void uart_puts(const char *s)
{
	while (*s) {
		while (REG(UART0_STATE) & 1u) {
		}
		REG(UART0_DATA) = (uint32_t)(uint8_t)*s++;
	}
}

static void semi_exit(uint32_t code)
{
	uint32_t block[2] = {0x20026u, code};
	register uint32_t r0 __asm__("r0") = 0x20;
	register uint32_t *r1 __asm__("r1") = block;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	for (;;) {
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

static uint32_t number_after_space(const char *s)
{
	uint32_t v = 0;
	while (*s && *s != ' ') {
		s++;
	}
	while (*s == ' ') {
		s++;
	}
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10u + (uint32_t)(*s - '0');
	}
	return v;
}

static void seed(const char *cmd)
{
	uint32_t n = number_after_space(cmd);
	if (starts(cmd, "warm")) {
		RECORD[0] = RECORD_MAGIC;
		RECORD[1] = n;
		RECORD[2] = ~(RECORD_MAGIC ^ n);
	} else if (starts(cmd, "badcheck")) {
		RECORD[0] = RECORD_MAGIC;
		RECORD[1] = n;
		RECORD[2] = ~(RECORD_MAGIC ^ n) ^ 0x00000100u;
	} else if (starts(cmd, "badmagic")) {
		RECORD[0] = RECORD_MAGIC ^ 0x00010000u;
		RECORD[1] = n;
		RECORD[2] = ~(RECORD[0] ^ n);
	} else if (starts(cmd, "garbage")) {
		RECORD[0] = 0xDEADBEEFu;
		RECORD[1] = 0xDEADBEEFu;
		RECORD[2] = 0xDEADBEEFu;
	}
}

void board_init(void)
{
	REG(UART0_BAUDDIV) = 217u;
	REG(UART0_CTRL) = 0x3u;
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming, so the
	 * input never stalls on a loaded host. */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */

	if (MARK[0] != MARK_MAGIC) {
		char line[64];
		unsigned n = 0;
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
		seed(line);
		MARK[0] = MARK_MAGIC;
		MARK[1] = 1u;
	} else {
		if (REG(TIMER0_CTRL) & 1u) {
			uart_puts("board: started again without a system reset\n");
			semi_exit(3u);
		}
		MARK[1] = MARK[1] + 1u;
		if (MARK[1] > 20u) {
			uart_puts("board: more than 20 boots\n");
			semi_exit(4u);
		}
	}
	REG(TIMER0_RELOAD) = 0xFFFFFFFFu;
	REG(TIMER0_CTRL) = 1u;
}
