/*
 * Hidden test bench for dma-005 (not shown to the model).
 *
 * Models the scatter-gather DMA engine and a write-back data cache with
 * 32-byte lines over two arenas (sources and destinations): the arrays
 * src_cpu/dst_cpu are what the CPU sees, src_ram/dst_ram what memory holds
 * (and what the engine reads and writes). Descriptor lines are modelled by
 * snapshots taken when the answer cleans them.
 *
 * Script on UART0, one transfer a line:  "t <soff>:<doff>:<len> ..."
 * (offsets into the arenas; a fragment may run past its arena only in a
 * list the answer must reject), ended by a line "end". For each transfer the
 * harness prints one verdict line, and "fault: ..." lines for misuse.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sgdma.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010UL)

#define SRC_SIZE 49152u
#define DST_SIZE 65536u
#define MAX_FRAGS 24u
#define SNAP_LINES 64u

static uint8_t src_cpu[SRC_SIZE] __attribute__((aligned(32)));
static uint8_t src_ram[SRC_SIZE] __attribute__((aligned(32)));
static uint8_t dst_cpu[DST_SIZE] __attribute__((aligned(32)));
static uint8_t dst_ram[DST_SIZE] __attribute__((aligned(32)));
static uint8_t src_dirty[SRC_SIZE / 32u];
static uint8_t dst_dirty[DST_SIZE / 32u];
static uint8_t dst_dirty_at_start[DST_SIZE / 32u];

static struct { uint32_t addr; uint8_t data[32]; } snap[SNAP_LINES];
static uint32_t snaps;

static uint32_t faults;
static uint32_t starts;
static uint32_t cache_ops;
static int busy_polls;        /* polls left before completion; -1: idle */
static uint32_t chain_first;
static int chain_ok;
static uint32_t chain_descs;

static void fault(const char *what, uint32_t v)
{
	printf("fault: %s 0x%08lx\n", what, (unsigned long)v);
	faults++;
}

static int in_src(uint32_t a) { return a >= (uint32_t)src_cpu && a < (uint32_t)src_cpu + SRC_SIZE; }
static int in_dst(uint32_t a) { return a >= (uint32_t)dst_cpu && a < (uint32_t)dst_cpu + DST_SIZE; }

static int range_ok(uint32_t addr, uint32_t len, const char *op)
{
	cache_ops++;
	if ((addr % DCACHE_LINE) != 0u || len == 0u || (len % DCACHE_LINE) != 0u) {
		printf("fault: %s(0x%08lx, %lu) not whole lines\n", op, (unsigned long)addr, (unsigned long)len);
		faults++;
		return 0;
	}
	return 1;
}

void dcache_clean(uint32_t addr, uint32_t len)
{
	if (!range_ok(addr, len, "dcache_clean")) {
		return;
	}
	for (uint32_t a = addr; a < addr + len; a += 32u) {
		if (in_src(a)) {
			uint32_t o = a - (uint32_t)src_cpu;
			if (src_dirty[o / 32u]) {
				memcpy(&src_ram[o], &src_cpu[o], 32u);
				src_dirty[o / 32u] = 0;
			}
		} else if (in_dst(a)) {
			uint32_t o = a - (uint32_t)dst_cpu;
			if (dst_dirty[o / 32u]) {
				memcpy(&dst_ram[o], &dst_cpu[o], 32u);
				dst_dirty[o / 32u] = 0;
			}
		} else {
			uint32_t i;
			for (i = 0; i < snaps && snap[i].addr != a; i++) {
			}
			if (i == snaps) {
				if (snaps == SNAP_LINES) {
					fault("too many lines cleaned at", a);
					continue;
				}
				snaps++;
				snap[i].addr = a;
			}
			memcpy(snap[i].data, (const void *)a, 32u);
		}
	}
}

void dcache_invalidate(uint32_t addr, uint32_t len)
{
	if (!range_ok(addr, len, "dcache_invalidate")) {
		return;
	}
	/* A discarded line is refetched from memory at once (speculative refill). */
	for (uint32_t a = addr; a < addr + len; a += 32u) {
		if (in_src(a)) {
			uint32_t o = a - (uint32_t)src_cpu;
			memcpy(&src_cpu[o], &src_ram[o], 32u);
			src_dirty[o / 32u] = 0;
		} else if (in_dst(a)) {
			uint32_t o = a - (uint32_t)dst_cpu;
			memcpy(&dst_cpu[o], &dst_ram[o], 32u);
			dst_dirty[o / 32u] = 0;
		}
	}
}

/* The engine reads a descriptor word from memory: a cleaned snapshot. */
static int mem_desc(uint32_t a, sg_desc_t *d)
{
	uint32_t line = a & ~31u;
	for (uint32_t i = 0; i < snaps; i++) {
		if (snap[i].addr == line) {
			memcpy(d, &snap[i].data[a - line], sizeof *d);
			return memcmp(d, (const void *)a, sizeof *d) == 0;
		}
	}
	return 0;
}

void sgdma_start(const sg_desc_t *first)
{
	starts++;
	if (busy_polls >= 0) {
		fault("sgdma_start while busy", (uint32_t)first);
		return;
	}
	chain_first = (uint32_t)first;
	chain_ok = 1;
	chain_descs = 0;
	memcpy(dst_dirty_at_start, dst_dirty, sizeof dst_dirty);
	/* Validate the chain as the engine will fetch it. */
	uint32_t a = chain_first;
	for (;;) {
		sg_desc_t d;
		if ((a % SG_DESC_ALIGN) != 0u) {
			fault("descriptor not 16-byte aligned at", a);
			chain_ok = 0;
			break;
		}
		if (!mem_desc(a, &d)) {
			fault("descriptor not in memory (not cleaned) at", a);
			chain_ok = 0;
			break;
		}
		chain_descs++;
		uint32_t count = d.ctrl & SG_CTRL_COUNT_MASK;
		uint32_t width = (d.ctrl >> SG_CTRL_WIDTH_SHIFT) & 3u;
		uint32_t unit = 1u << width;
		if (count == 0u || width > SG_WIDTH_4 || (d.ctrl & (SG_CTRL_SRC_INC | SG_CTRL_DST_INC)) != (SG_CTRL_SRC_INC | SG_CTRL_DST_INC)
		    || (d.ctrl & 0x7FFF0000u) != 0u || (d.src % unit) != 0u || (d.dst % unit) != 0u) {
			fault("bad descriptor ctrl", d.ctrl);
			chain_ok = 0;
			break;
		}
		if (!in_src(d.src) || !in_src(d.src + count * unit - 1u) || !in_dst(d.dst) || !in_dst(d.dst + count * unit - 1u)) {
			fault("descriptor outside the buffers at", a);
			chain_ok = 0;
			break;
		}
		if (d.ctrl & SG_CTRL_LAST) {
			break;
		}
		if (chain_descs >= 64u) {
			fault("chain without LAST at", chain_first);
			chain_ok = 0;
			break;
		}
		a = d.next;
	}
	busy_polls = 3;
}

static void complete(void)
{
	if (chain_ok) {
		sg_desc_t d;
		uint32_t a = chain_first;
		for (;;) {
			(void)mem_desc(a, &d);
			uint32_t count = d.ctrl & SG_CTRL_COUNT_MASK;
			uint32_t unit = 1u << ((d.ctrl >> SG_CTRL_WIDTH_SHIFT) & 3u);
			memcpy(&dst_ram[d.dst - (uint32_t)dst_cpu], &src_ram[d.src - (uint32_t)src_cpu], count * unit);
			if (d.ctrl & SG_CTRL_LAST) {
				break;
			}
			a = d.next;
		}
		/* Dirty destination lines left in the cache at the start are
		 * evicted during the transfer, over the engine's data. */
		for (uint32_t l = 0; l < DST_SIZE / 32u; l++) {
			if (dst_dirty_at_start[l] && dst_dirty[l]) {
				memcpy(&dst_ram[l * 32u], &dst_cpu[l * 32u], 32u);
				dst_dirty[l] = 0;
			}
		}
	}
	busy_polls = -1;
}

int sgdma_busy(void)
{
	if (busy_polls < 0) {
		return 0;
	}
	if (busy_polls > 0) {
		busy_polls--;
		return 1;
	}
	complete();
	return 0;
}

/* ---- script ------------------------------------------------------------- */

static int uart_getc(void)
{
	while ((UART0_STATE & 2u) == 0u) {
	}
	return (int)(UART0_DATA & 0xFFu);
}

static char line[512];

static int read_line(void)
{
	unsigned n = 0;
	for (;;) {
		int c = uart_getc();
		if (c == '\n' || c == '\r') {
			if (n == 0u) {
				continue;
			}
			line[n] = '\0';
			return 1;
		}
		if (n + 1u < sizeof line) {
			line[n++] = (char)c;
		}
	}
}

static uint32_t num(const char **p)
{
	uint32_t v = 0;
	while (**p >= '0' && **p <= '9') {
		v = v * 10u + (uint32_t)(**p - '0');
		(*p)++;
	}
	return v;
}

int main(void)
{
	UART0_BAUD = 16;
	UART0_CTRL = 3u;
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming, so the
	 * input never stalls on a loaded host. */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */
	busy_polls = -1;

	for (uint32_t t = 1;; t++) {
		read_line();
		if (strcmp(line, "end") == 0) {
			break;
		}
		sg_frag_t fr[MAX_FRAGS];
		uint32_t n = 0, total = 0;
		const char *p = line + 1;
		while (*p == ' ') {
			p++;
		}
		while (*p != '\0' && n < MAX_FRAGS) {
			uint32_t so = num(&p); p++;
			uint32_t d_o = num(&p); p++;
			uint32_t len = num(&p);
			while (*p == ' ') {
				p++;
			}
			if (so >= SRC_SIZE || d_o >= DST_SIZE || len > 300000u) {
				printf("harness: bad script\n");
				exit(2);
			}
			fr[n].src = &src_cpu[so];
			fr[n].dst = &dst_cpu[d_o];
			fr[n].len = len;
			total += len;
			n++;
		}
		/* Fresh state: the CPU has just written the sources (dirty in the
		 * cache, memory still old) and the destinations (dirty filler). */
		for (uint32_t i = 0; i < SRC_SIZE; i++) {
			src_cpu[i] = (uint8_t)(i * 7u + t * 13u + 1u);
			src_ram[i] = (uint8_t)~src_cpu[i];
		}
		memset(src_dirty, 1, sizeof src_dirty);
		memset(dst_cpu, 0xA5, sizeof dst_cpu);
		memset(dst_ram, 0x5A, sizeof dst_ram);
		memset(dst_dirty, 1, sizeof dst_dirty);
		faults = 0;
		starts = 0;
		cache_ops = 0;

		int rc = sg_copy(fr, n);

		if (busy_polls >= 0) {
			printf("fault: sg_copy returned before the engine finished\n");
			faults++;
			while (sgdma_busy()) {
			}
		}
		if (rc < 0) {
			if (starts != 0u || cache_ops != 0u) {
				printf("fault: rejected list was started or maintained\n");
			}
			printf("transfer %lu: rejected\n", (unsigned long)t);
			continue;
		}
		if (starts != 1u) {
			printf("fault: sgdma_start called %lu times\n", (unsigned long)starts);
		}
		if ((uint32_t)rc != chain_descs) {
			printf("fault: sg_copy returned %d, the chain has %lu descriptors\n", rc, (unsigned long)chain_descs);
		}
		int bad_f = -1;
		uint32_t bad_o = 0;
		for (uint32_t f = 0; f < n && bad_f < 0; f++) {
			const uint8_t *want = fr[f].src;
			/* The expected bytes are what the CPU wrote: recompute them. */
			uint32_t so = (uint32_t)((const uint8_t *)fr[f].src - src_cpu);
			const uint8_t *got = fr[f].dst;
			(void)want;
			for (uint32_t i = 0; i < fr[f].len; i++) {
				if (got[i] != (uint8_t)((so + i) * 7u + t * 13u + 1u)) {
					bad_f = (int)f;
					bad_o = i;
					break;
				}
			}
		}
		if (bad_f < 0) {
			printf("transfer %lu: %d descriptors, %lu bytes, data ok\n", (unsigned long)t, rc, (unsigned long)total);
		} else {
			printf("transfer %lu: %d descriptors, %lu bytes, data STALE at fragment %d offset %lu\n",
			       (unsigned long)t, rc, (unsigned long)total, bad_f, (unsigned long)bad_o);
		}
	}
	printf("end of script\n");
	exit(0);
}
