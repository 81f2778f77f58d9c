/*
 * The application image of boot-004 (built twice: slot A and slot B).
 * It checks the state the bootloader handed over and reports through
 * semihosting:
 *   app: slot <S> version <V>
 *   app: vtor ok | app: vtor BAD 0x........
 *   app: msp ok | app: msp BAD 0x........
 *   app: primask ok | app: primask BAD
 *   app: no stray interrupt | app: stray interrupt <exception number>
 * then ends the run with status 0 (all ok) or 2.
 * Its RAM (0x20300000..) is untouched by the bootloader and zero at power-on,
 * so .bss needs no clearing.
 */
#include <stdint.h>

#define REG(a) (*(volatile uint32_t *)(a))
#define SYST_CSR 0xE000E010u
#define VTOR     0xE000ED08u
#define ICER0    0xE000E180u

extern const uint32_t _body_start[];
extern char APP_STACK[]; /* absolute symbol from --defsym: the initial SP */

void app_reset(void);
static void stray_handler(void);

__attribute__((section(".app_vectors"), used))
const uintptr_t app_vectors[48] = {
	[0] = (uintptr_t)APP_STACK,
	[1] = (uintptr_t)app_reset,
	[2 ... 47] = (uintptr_t)stray_handler,
};

static volatile uint32_t stray_exc;
static uint32_t stdout_handle; /* handle + 1, 0 before the first write */

static uint32_t semi_call(uint32_t op, const void *arg)
{
	register uint32_t r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

/* Writes to the host's stdout (":tt" opened for writing), as newlib does. */
static void semi_write0(const char *s)
{
	static const char tt[] = ":tt";
	uint32_t open_args[3] = {(uint32_t)(uintptr_t)tt, 4u, 3u};
	uint32_t len = 0;
	while (s[len]) {
		len++;
	}
	if (stdout_handle == 0u) {
		stdout_handle = semi_call(0x01u, open_args) + 1u;
	}
	uint32_t write_args[3] = {stdout_handle - 1u, (uint32_t)(uintptr_t)s, len};
	semi_call(0x05u, write_args);
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

static char *put_str(char *p, const char *s)
{
	while (*s) {
		*p++ = *s++;
	}
	return p;
}

static char *put_hex(char *p, uint32_t v)
{
	static const char digits[] = "0123456789abcdef";
	p = put_str(p, "0x");
	for (int i = 28; i >= 0; i -= 4) {
		*p++ = digits[(v >> i) & 0xFu];
	}
	return p;
}

static char *put_dec(char *p, uint32_t v)
{
	char tmp[12];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v != 0u);
	while (n > 0) {
		*p++ = tmp[--n];
	}
	return p;
}

static void line(char *start, char *end)
{
	*end++ = '\n';
	*end = '\0';
	semi_write0(start);
}

static void stray_handler(void)
{
	uint32_t ipsr;
	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	if (stray_exc == 0u) {
		stray_exc = ipsr;
	}
	if (ipsr == 15u) {
		REG(SYST_CSR) = 0u;
	} else if (ipsr >= 16u) {
		REG(ICER0) = 1u << ((ipsr - 16u) & 31u);
	} else {
		char buf[48];
		line(buf, put_dec(put_str(buf, "app: fault exception "), ipsr));
		semi_exit(3u);
	}
}

__attribute__((used)) static void app_main(uint32_t msp, uint32_t primask)
{
	const uint32_t *hdr = (const uint32_t *)((uintptr_t)_body_start - 0x100u);
	char buf[64];
	int bad = 0;

	line(buf, put_dec(put_str(put_str(put_str(buf, "app: slot "), (char[]){SLOT_NAME, 0}), " version "), hdr[1]));

	uint32_t vtor = REG(VTOR);
	if (vtor == (uint32_t)(uintptr_t)_body_start) {
		line(buf, put_str(buf, "app: vtor ok"));
	} else {
		line(buf, put_hex(put_str(buf, "app: vtor BAD "), vtor));
		bad = 1;
	}
	if (msp == _body_start[0]) {
		line(buf, put_str(buf, "app: msp ok"));
	} else {
		line(buf, put_hex(put_str(buf, "app: msp BAD "), msp));
		bad = 1;
	}
	if ((primask & 1u) == 0u) {
		line(buf, put_str(buf, "app: primask ok"));
	} else {
		line(buf, put_str(buf, "app: primask BAD"));
		bad = 1;
	}

	/* Give any interrupt source the bootloader left running ~3 ms to fire. */
	__asm__ volatile("cpsie i" ::: "memory");
	for (volatile uint32_t i = 0; i < 60000u; i++) {
	}
	__asm__ volatile("cpsid i" ::: "memory");
	if (stray_exc == 0u) {
		line(buf, put_str(buf, "app: no stray interrupt"));
	} else {
		line(buf, put_dec(put_str(buf, "app: stray interrupt "), stray_exc));
		bad = 1;
	}
	semi_exit(bad ? 2u : 0u);
}

__attribute__((naked)) void app_reset(void)
{
	__asm__ volatile(
		"mrs r0, msp\n"
		"mrs r1, primask\n"
		"b app_main\n");
}
