/*
 * Hidden test application for ota-006 (not shown to the model).
 *
 * Simulates the ten-sector NOR flash of swap.h in RAM (program = AND,
 * erase = 0xFF, power failure after a budget of programmed bytes or just
 * before the k-th erase) and checks the slots after swaps and resumes.
 * Every power-on after a failure (and init) re-initialises the answer's
 * static RAM, since the prompt says a reboot loses all RAM.
 * Commands read from UART0, one a line:
 *
 *   init <seedA> <seedB>   slots filled with two images, scratch and status erased: "init"
 *   swap                   swap_images(): "swap <rc>", "swap <rc> cut" when power failed
 *   resume                 swap_resume(): "resume <rc>", "resume <rc> cut"
 *   cut <n>                power fails after n more programmed bytes
 *   cuterase <k>           power fails just before the k-th next erase (k >= 1)
 *   reboot                 power back (the answer's .data/.bss re-initialised, as at a
 *                          real boot), no planned failure, ops count reset: "reboot"
 *   ops                    "ops <n>": erase and program calls since the last ops/init/reboot
 *   check                  "slots original" | "slots swapped" | "slots corrupt <first bad sector>"
 *   prev <k> <partial>     status and slots as an earlier boot loader leaves them after
 *                          completing steps 0..k-1 (step k = sector k/3, step k%3+1) and
 *                          programming <partial> bytes of step k's copy (-1: not even erased): "prev"
 *   sweep <stride> <mode>  cuts power at every <stride>-th byte of a swap and around every
 *                          erase; mode 0: one resume; 1: a byte cut in the first resume;
 *                          2: an erase cut in the first resume; then resumes until done:
 *                          "sweep points many|few", "sweep failures <n>"
 *   end                    exit(0)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "swap.h"

#define FLASH_SIZE (FLASH_SECTOR_SIZE * FLASH_SECTOR_COUNT)
#define SLOT_SIZE  (FLASH_SECTOR_SIZE * SLOT_SECTORS)
#define NSTEPS     (3u * SLOT_SECTORS)

#define UART0_DATA   (*(volatile uint32_t *)0x40004000u)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004u)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008u)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010u)


/* ------------------------------------------------------------ console */

static void putch(char ch)
{
	while (UART0_STATE & 1u) {
	}
	UART0_DATA = (uint8_t)ch;
}

static void puts_(const char *s)
{
	while (*s) {
		putch(*s++);
	}
}

static void putnum(long v)
{
	char tmp[24];
	int n = 0;
	unsigned long u = v < 0 ? (unsigned long)(-v) : (unsigned long)v;

	if (v < 0) {
		putch('-');
	}
	do {
		tmp[n++] = (char)('0' + u % 10u);
		u /= 10u;
	} while (u);
	while (n) {
		putch(tmp[--n]);
	}
}

static void nl(void)
{
	putch('\r');
	putch('\n');
}

static int getch(void)
{
	while ((UART0_STATE & 2u) == 0u) {
	}
	return (int)(UART0_DATA & 0xFFu);
}

static int getline_(char *buf, int cap)
{
	int n = 0;

	for (;;) {
		int ch = getch();
		if (ch == '\n') {
			break;
		}
		if (ch == '\r') {
			continue;
		}
		if (n < cap - 1) {
			buf[n++] = (char)ch;
		}
	}
	buf[n] = 0;
	return n;
}

static const char *word(const char *s, char *out, int cap)
{
	int n = 0;

	while (*s == ' ') {
		s++;
	}
	while (*s && *s != ' ') {
		if (n < cap - 1) {
			out[n++] = *s;
		}
		s++;
	}
	out[n] = 0;
	return s;
}

static long num(const char **s)
{
	char w[24];

	*s = word(*s, w, sizeof w);
	return strtol(w, NULL, 0);
}


/* ------------------------------------------------------------ flash */

static uint8_t flash[FLASH_SIZE];
static int power_lost;
static long budget = -1;        /* programmed bytes left before the failure, -1: none */
static long erase_cut = -1;     /* erases left before the failing one, -1: none */
static unsigned long programmed;
static unsigned long ops;

#define MAX_ERASE_POINTS 32
static int record_erases;
static unsigned long erase_points[MAX_ERASE_POINTS];
static unsigned n_erase_points;

int flash_read(uint32_t addr, void *buf, size_t len)
{
	if (power_lost) {
		return FLASH_EPOWER;
	}
	if (addr > FLASH_SIZE || len > FLASH_SIZE - addr || (buf == NULL && len != 0u)) {
		return FLASH_ERANGE;
	}
	memcpy(buf, &flash[addr], len);
	return FLASH_OK;
}

int flash_program(uint32_t addr, const void *data, size_t len)
{
	const uint8_t *d = data;
	size_t i;

	if (power_lost) {
		return FLASH_EPOWER;
	}
	if (addr > FLASH_SIZE || len > FLASH_SIZE - addr || (data == NULL && len != 0u)) {
		return FLASH_ERANGE;
	}
	if (len) {
		ops++;
	}
	for (i = 0; i < len; i++) {
		if (budget == 0) {
			power_lost = 1;
			return FLASH_EPOWER;
		}
		if (budget > 0) {
			budget--;
		}
		flash[addr + i] &= d[i];
		programmed++;
	}
	return FLASH_OK;
}

int flash_erase(uint32_t sector)
{
	if (power_lost) {
		return FLASH_EPOWER;
	}
	if (sector >= FLASH_SECTOR_COUNT) {
		return FLASH_ERANGE;
	}
	if (record_erases && n_erase_points < MAX_ERASE_POINTS) {
		erase_points[n_erase_points++] = programmed;
	}
	if (budget == 0 || erase_cut == 1) {
		power_lost = 1;
		return FLASH_EPOWER;
	}
	if (erase_cut > 1) {
		erase_cut--;
	}
	ops++;
	memset(&flash[sector * FLASH_SECTOR_SIZE], 0xFF, FLASH_SECTOR_SIZE);
	return FLASH_OK;
}

/* The answer's static RAM (answer.o's .data and .bss, grouped by
 * mps2_an385.ld): "The controller then reboots (all RAM is lost)", so every
 * power-on re-initialises it as the startup code of a real boot does. */
extern uint8_t _answer_sidata[], _answer_sdata[], _answer_edata[];
extern uint8_t _answer_sbss[], _answer_ebss[];

static void power_on(void)
{
	power_lost = 0;
	budget = -1;
	erase_cut = -1;
	memcpy(_answer_sdata, _answer_sidata, (size_t)(_answer_edata - _answer_sdata));
	memset(_answer_sbss, 0, (size_t)(_answer_ebss - _answer_sbss));
}

/* ------------------------------------------------------------ images */

static uint8_t img_a[SLOT_SIZE], img_b[SLOT_SIZE];

static void make_image(uint8_t *v, unsigned seed)
{
	unsigned i;
	uint32_t x = seed * 2654435761u + 77u;

	for (i = 0; i < SLOT_SIZE; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = (uint8_t)(x >> 16);
		if ((seed + i) % 11u == 3u) {
			v[i] = 0xFFu;
		} else if ((seed + i) % 13u == 5u) {
			v[i] = 0x00u;
		}
	}
	/* every sector starts with its index, so a sector copied to the wrong place shows */
	for (i = 0; i < SLOT_SECTORS; i++) {
		v[i * FLASH_SECTOR_SIZE] = (uint8_t)(0xA0u + i);
		v[i * FLASH_SECTOR_SIZE + 1u] = (uint8_t)seed;
	}
}

static void init_flash(unsigned sa, unsigned sb)
{
	make_image(img_a, sa);
	make_image(img_b, sb);
	memset(flash, 0xFF, sizeof flash);
	memcpy(&flash[PRIMARY_FIRST * FLASH_SECTOR_SIZE], img_a, SLOT_SIZE);
	memcpy(&flash[SECONDARY_FIRST * FLASH_SECTOR_SIZE], img_b, SLOT_SIZE);
	power_on();
	ops = 0;
}

#define SLOTS_ORIGINAL 0
#define SLOTS_SWAPPED  1
#define SLOTS_CORRUPT  2

static int slots_state(unsigned *bad)
{
	const uint8_t *p = &flash[PRIMARY_FIRST * FLASH_SECTOR_SIZE];
	const uint8_t *s = &flash[SECONDARY_FIRST * FLASH_SECTOR_SIZE];
	unsigned i;

	if (memcmp(p, img_a, SLOT_SIZE) == 0 && memcmp(s, img_b, SLOT_SIZE) == 0) {
		return SLOTS_ORIGINAL;
	}
	if (memcmp(p, img_b, SLOT_SIZE) == 0 && memcmp(s, img_a, SLOT_SIZE) == 0) {
		return SLOTS_SWAPPED;
	}
	*bad = 0;
	for (i = 0; i < SLOT_SECTORS; i++) {
		unsigned o = i * FLASH_SECTOR_SIZE;
		if (memcmp(p + o, img_b + o, FLASH_SECTOR_SIZE) != 0 || memcmp(s + o, img_a + o, FLASH_SECTOR_SIZE) != 0) {
			*bad = i;
			break;
		}
	}
	return SLOTS_CORRUPT;
}

static int magic_complete(void)
{
	const uint8_t *st = &flash[STATUS_SECTOR * FLASH_SECTOR_SIZE];

	return st[0] == STATUS_MAGIC_0 && st[1] == STATUS_MAGIC_1 && st[2] == STATUS_MAGIC_2 && st[3] == STATUS_MAGIC_3;
}

/* The earlier boot loader: raw steps on the flash array. */
static void raw_copy(unsigned dst, unsigned src, int partial)
{
	if (partial < 0) {
		return;
	}
	memset(&flash[dst * FLASH_SECTOR_SIZE], 0xFF, FLASH_SECTOR_SIZE);
	memcpy(&flash[dst * FLASH_SECTOR_SIZE], &flash[src * FLASH_SECTOR_SIZE], (size_t)partial);
}

static void raw_step(unsigned k, int partial)
{
	unsigned i = k / 3u, s = k % 3u + 1u;

	if (s == 1u) {
		raw_copy(SCRATCH_SECTOR, SECONDARY_FIRST + i, partial);
	} else if (s == 2u) {
		raw_copy(SECONDARY_FIRST + i, PRIMARY_FIRST + i, partial);
	} else {
		raw_copy(PRIMARY_FIRST + i, SCRATCH_SECTOR, partial);
	}
}

static void prev_state(unsigned k, int partial)
{
	uint8_t *st = &flash[STATUS_SECTOR * FLASH_SECTOR_SIZE];
	unsigned j;

	/* leftovers of an older swap in the scratch sector */
	memset(&flash[SCRATCH_SECTOR * FLASH_SECTOR_SIZE], 0x5A, FLASH_SECTOR_SIZE);
	memset(st, 0xFF, FLASH_SECTOR_SIZE);
	st[0] = STATUS_MAGIC_0;
	st[1] = STATUS_MAGIC_1;
	st[2] = STATUS_MAGIC_2;
	st[3] = STATUS_MAGIC_3;
	for (j = 0; j < k && j < NSTEPS; j++) {
		raw_step(j, FLASH_SECTOR_SIZE);
		st[STATUS_STEP_OFF + j] = STATUS_SET;
	}
	if (k < NSTEPS) {
		raw_step(k, partial);
	}
}

/* ------------------------------------------------------------ sweep */

static unsigned sweep_fail_reported;

static void sweep_fail(const char *what, unsigned long point, int kind)
{
	if (sweep_fail_reported < 3u) {
		puts_("sweep fail ");
		puts_(kind ? "erase " : "byte ");
		putnum((long)point);
		puts_(" ");
		puts_(what);
		nl();
	}
	sweep_fail_reported++;
}

/* One power-failure point: kind 0 = byte budget, 1 = before the point-th erase. Returns 1 when it failed. */
static int sweep_point(unsigned long point, int kind, int mode, unsigned salt)
{
	int rc, committed, st, tries;
	unsigned bad;

	init_flash(0x31u + salt % 2u, 0x64u + salt % 2u);
	if (kind == 0) {
		budget = (long)point;
	} else {
		erase_cut = (long)point;
	}
	rc = swap_images();
	if (!power_lost) {
		/* the failure point lies beyond this swap */
		power_on();
		if (rc != SWAP_OK || slots_state(&bad) != SLOTS_SWAPPED) {
			sweep_fail("uncut swap wrong", point, kind);
			return 1;
		}
		return 0;
	}
	if (rc != SWAP_EIO) {
		sweep_fail("swap_images did not return SWAP_EIO after the failure", point, kind);
		return 1;
	}
	committed = magic_complete();
	power_on();
	if (mode == 1) {
		budget = (long)((point * 37u + salt * 11u) % 700u) + 1;
	} else if (mode == 2) {
		erase_cut = (long)((point + salt) % 6u) + 1;
	}
	for (tries = 0; tries < 3; tries++) {
		rc = swap_resume();
		if (!power_lost) {
			break;
		}
		if (rc != SWAP_EIO) {
			sweep_fail("swap_resume did not return SWAP_EIO after the failure", point, kind);
			return 1;
		}
		power_on();
	}
	power_on();
	if (committed ? (rc != SWAP_RESUMED && rc != SWAP_NONE) : rc != SWAP_NONE) {
		sweep_fail(committed ? "resume returned a wrong code" : "resume of an uncommitted swap did not return SWAP_NONE", point, kind);
		return 1;
	}
	st = slots_state(&bad);
	if (st != (committed ? SLOTS_SWAPPED : SLOTS_ORIGINAL)) {
		sweep_fail(committed ? "committed swap not complete" : "uncommitted swap changed the slots", point, kind);
		return 1;
	}
	ops = 0;
	rc = swap_resume();
	if (rc != SWAP_NONE || ops != 0u || slots_state(&bad) != st) {
		sweep_fail("resume after completion did not return SWAP_NONE untouched", point, kind);
		return 1;
	}
	return 0;
}

static void sweep(unsigned long stride, int mode)
{
	unsigned long total, points = 0, failures = 0, b;
	unsigned nerase, e;
	int rc;
	unsigned bad;
	unsigned long ep[MAX_ERASE_POINTS];

	sweep_fail_reported = 0;
	/* dry run: bytes programmed by a whole swap and where the erases fall */
	init_flash(0x31u, 0x64u);
	record_erases = 1;
	n_erase_points = 0;
	programmed = 0;
	rc = swap_images();
	record_erases = 0;
	total = programmed;
	nerase = n_erase_points;
	memcpy(ep, erase_points, sizeof ep);
	if (rc != SWAP_OK || slots_state(&bad) != SLOTS_SWAPPED) {
		puts_("sweep dry run failed");
		nl();
		return;
	}
	if (stride == 0u) {
		stride = 1u;
	}
	for (b = 0; b < total; b += stride) {
		failures += (unsigned long)sweep_point(b, 0, mode, (unsigned)points);
		points++;
	}
	for (e = 0; e < nerase; e++) {
		long d;
		for (d = -2; d <= 2; d++) {
			long p = (long)ep[e] + d;
			if (p < 0 || (unsigned long)p >= total || ((unsigned long)p % stride) == 0u) {
				continue;
			}
			failures += (unsigned long)sweep_point((unsigned long)p, 0, mode, (unsigned)points);
			points++;
		}
		failures += (unsigned long)sweep_point(e + 1u, 1, mode, (unsigned)points);
		points++;
	}
	for (b = total > 6u ? total - 6u : 0u; b < total; b++) {
		if (b % stride) {
			failures += (unsigned long)sweep_point(b, 0, mode, (unsigned)points);
			points++;
		}
	}
	puts_("sweep points ");
	puts_(points >= 50u ? "many" : "few");
	nl();
	puts_("sweep failures ");
	putnum((long)failures);
	nl();
}

/* ------------------------------------------------------------ main */

static void report(const char *name, int rc)
{
	puts_(name);
	putch(' ');
	putnum(rc);
	if (power_lost) {
		puts_(" cut");
	}
	nl();
}

int main(void)
{
	char line[96], cmd[24];

	UART0_BAUD = 217u;
	UART0_CTRL = 3u;
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming. */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */
	init_flash(1u, 2u);

	for (;;) {
		const char *s;

		getline_(line, sizeof line);
		s = word(line, cmd, sizeof cmd);
		if (cmd[0] == 0) {
			continue;
		}
		if (strcmp(cmd, "init") == 0) {
			long a = num(&s), b = num(&s);
			init_flash((unsigned)a, (unsigned)b);
			puts_("init");
			nl();
		} else if (strcmp(cmd, "swap") == 0) {
			report("swap", swap_images());
		} else if (strcmp(cmd, "resume") == 0) {
			report("resume", swap_resume());
		} else if (strcmp(cmd, "cut") == 0) {
			budget = num(&s);
		} else if (strcmp(cmd, "cuterase") == 0) {
			erase_cut = num(&s);
		} else if (strcmp(cmd, "reboot") == 0) {
			power_on();
			ops = 0;
			puts_("reboot");
			nl();
		} else if (strcmp(cmd, "ops") == 0) {
			puts_("ops ");
			putnum((long)ops);
			nl();
			ops = 0;
		} else if (strcmp(cmd, "check") == 0) {
			unsigned bad = 0;
			int st = slots_state(&bad);
			puts_(st == SLOTS_ORIGINAL ? "slots original" : st == SLOTS_SWAPPED ? "slots swapped" : "slots corrupt ");
			if (st == SLOTS_CORRUPT) {
				putnum((long)bad);
			}
			nl();
		} else if (strcmp(cmd, "prev") == 0) {
			long k = num(&s), partial = num(&s);
			if (k < 0 || k > (long)NSTEPS || partial < -1 || partial > (long)FLASH_SECTOR_SIZE) {
				puts_("bad script");
			} else {
				prev_state((unsigned)k, (int)partial);
				puts_("prev");
			}
			nl();
		} else if (strcmp(cmd, "sweep") == 0) {
			long stride = num(&s), mode = num(&s);
			sweep((unsigned long)stride, (int)mode);
		} else if (strcmp(cmd, "end") == 0) {
			puts_("end");
			nl();
			exit(0);
		} else {
			puts_("bad script");
			nl();
		}
	}
}
