/*
 * Hidden test bench of timer-006, linked with the answer. A reference clock
 * runs on CMSDK timer0 (free-running, 25 MHz, no interrupt). main() reads a
 * script from UART0, one command a line:
 *   init <start>       usclock_init(start), prints "init <start> now <usclock_now()>"
 *   measure <us>       prints "measured <d>": usclock_now() difference over
 *                      <us> microseconds of the reference clock
 *   mono <n>           n back-to-back usclock_now() calls; prints
 *                      "mono calls <n> backsteps <b> maxstep <m>"
 *   timeout <us>       timeout_start(), then polls timeout_expired();
 *                      prints "timeout <us> rejected" or
 *                      "timeout <us> expired after <ref_us> us"
 *                      (gives up after us + 20 ms: "... not expired")
 *   remaining <us> <w> timeout_start(us), waits w us, prints
 *                      "remaining <r>", then waits until expiry and prints
 *                      "remaining after expiry <r>"
 *   start <us>         timeout_start(us); prints "start <us> ok remaining <r>
 *                      expired <0|1>" or "start <us> returned <rc>"
 *   end                prints "end" and exits 0
 * Dual timer 2 runs periodic without interrupt as the QEMU input keep-alive.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "usclock.h"

#define REG(a) (*(volatile uint32_t *)(a))

#define UART0_DATA   0x40004000u
#define UART0_STATE  0x40004004u
#define UART0_CTRL   0x40004008u
#define UART0_BAUD   0x40004010u
#define T0_CTRL      0x40000000u
#define T0_VALUE     0x40000004u
#define T0_RELOAD    0x40000008u
#define DT2_LOAD     0x40002020u
#define DT2_CTRL     0x40002028u

static uint32_t ref_ticks(void)
{
	return 0xFFFFFFFFu - REG(T0_VALUE);
}

static void ref_wait_us(uint32_t us)
{
	uint32_t t0 = ref_ticks();
	while (ref_ticks() - t0 < us * 25u) {
	}
}

static int getch(void)
{
	while ((REG(UART0_STATE) & 2u) == 0u) {
	}
	return (int)(REG(UART0_DATA) & 0xFFu);
}

int main(void)
{
	char line[120];

	REG(DT2_LOAD) = 2500u;
	REG(DT2_CTRL) = 0xC2u;   /* enable, periodic, 32-bit, no interrupt */
	REG(T0_RELOAD) = 0xFFFFFFFFu;
	REG(T0_VALUE) = 0xFFFFFFFFu;
	REG(T0_CTRL) = 1u;       /* enable, no interrupt */
	REG(UART0_BAUD) = 217u;
	REG(UART0_CTRL) = 0x3u;

	for (;;) {
		unsigned n = 0;
		int c;
		while ((c = getch()) != '\n') {
			if (c != '\r' && n < sizeof(line) - 1u) {
				line[n++] = (char)c;
			}
		}
		line[n] = '\0';
		char *arg = strchr(line, ' ');
		uint32_t a = arg ? (uint32_t)strtoul(arg, &arg, 10) : 0u;
		uint32_t b = arg ? (uint32_t)strtoul(arg, NULL, 10) : 0u;

		if (strncmp(line, "init", 4) == 0) {
			usclock_init(a);
			uint32_t n0 = usclock_now();
			printf("init %lu now %lu\n", (unsigned long)a, (unsigned long)n0);
		} else if (strncmp(line, "measure", 7) == 0) {
			uint32_t t0 = usclock_now();
			ref_wait_us(a);
			uint32_t t1 = usclock_now();
			printf("measured %lu\n", (unsigned long)(t1 - t0));
		} else if (strncmp(line, "mono", 4) == 0) {
			uint32_t prev = usclock_now(), back = 0, maxstep = 0;
			for (uint32_t i = 0; i < a; i++) {
				uint32_t now = usclock_now();
				int32_t d = (int32_t)(now - prev);
				if (d < 0) {
					back++;
				} else if ((uint32_t)d > maxstep) {
					maxstep = (uint32_t)d;
				}
				prev = now;
			}
			printf("mono calls %lu backsteps %lu maxstep %lu\n", (unsigned long)a, (unsigned long)back,
			       (unsigned long)maxstep);
		} else if (strncmp(line, "timeout", 7) == 0) {
			us_timeout t;
			memset(&t, 0x5A, sizeof(t));
			uint32_t r0 = ref_ticks();
			if (timeout_start(&t, a) != 0) {
				const uint8_t *p = (const uint8_t *)&t;
				int untouched = 1;
				for (unsigned k = 0; k < sizeof(t); k++) {
					if (p[k] != 0x5Au) {
						untouched = 0;
					}
				}
				printf("timeout %lu rejected%s\n", (unsigned long)a, untouched ? "" : " (changed)");
				continue;
			}
			uint32_t limit = (a + 20000u) * 25u;
			int done = 0;
			while (ref_ticks() - r0 < limit) {
				if (timeout_expired(&t)) {
					done = 1;
					break;
				}
			}
			uint32_t el = (ref_ticks() - r0) / 25u;
			if (done) {
				printf("timeout %lu expired after %lu us\n", (unsigned long)a, (unsigned long)el);
			} else {
				printf("timeout %lu not expired\n", (unsigned long)a);
			}
		} else if (strncmp(line, "remaining", 9) == 0) {
			us_timeout t;
			timeout_start(&t, a);
			ref_wait_us(b);
			printf("remaining %lu\n", (unsigned long)timeout_remaining(&t));
			uint32_t r0 = ref_ticks();
			while (!timeout_expired(&t) && ref_ticks() - r0 < (a + 20000u) * 25u) {
			}
			printf("remaining after expiry %lu\n", (unsigned long)timeout_remaining(&t));
		} else if (strncmp(line, "start", 5) == 0) {
			us_timeout t;
			int rc = timeout_start(&t, a);
			if (rc == 0) {
				uint32_t r = timeout_remaining(&t);
				int e = timeout_expired(&t) ? 1 : 0;
				printf("start %lu ok remaining %lu expired %d\n", (unsigned long)a, (unsigned long)r, e);
			} else {
				printf("start %lu returned %d\n", (unsigned long)a, rc);
			}
		} else if (strcmp(line, "end") == 0) {
			printf("end\n");
			exit(0);
		}
	}
}
