/*
 * Hidden test bench for dma-006 (not shown to the model).
 *
 * Models the LX-3 TX DMA engine of txring.h. The engine is a step machine
 * (engine_step): IDLE reads ring[idx].ctrl and, when OWN is set, takes the
 * frame (addr and the LEN bytes) into its FIFO; BUSY counts 1 + len/32
 * steps of "sending"; the last step writes status, clears OWN (keeping the
 * other ctrl bits it read), moves on (ring[0] after EOR) and halts after a
 * non-zero status until txdma_resume().
 *
 * Steps run either synchronously from thread mode (script commands "run"
 * and "step", the engine is held otherwise) or from the CMSDK timer0
 * interrupt (IRQ 8): a one-shot step fired k timer ticks into a call of
 * tx_send()/tx_reclaim() (sweeps, every offset, three instruction phases,
 * every ring slot), or periodic steps (soak). -icount makes every run
 * reproducible.
 *
 * A model checks everything the engine takes and everything tx_complete()
 * reports: accepted frames must go out once each, in order, with their
 * bytes; reports must come once each, in order, with the tag and status.
 *
 * Script (UART0, read completely before anything runs), one command a line:
 *   send <len> [<count>]  queue frames (seq = attempt number)
 *   free                  print tx_free()
 *   run                   engine steps until nothing to do (or halted)
 *   step <n>              n engine steps
 *   reclaim               tx_reclaim()
 *   fail <status>         the next frame the engine takes ends with status
 *   sweep_send | sweep_reclaim | soak <frames>
 *                         (sweep_send restarts the answer - .data, .bss,
 *                         tx_init() - before every offset and phase)
 *   end                   summary, exit(0)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "txring.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010UL)

#define T0_CTRL      (*(volatile uint32_t *)0x40000000UL)
#define T0_VALUE     (*(volatile uint32_t *)0x40000004UL)
#define T0_RELOAD    (*(volatile uint32_t *)0x40000008UL)
#define T0_INTCLR    (*(volatile uint32_t *)0x4000000CUL)
#define T1_CTRL      (*(volatile uint32_t *)0x40001000UL)
#define T1_VALUE     (*(volatile uint32_t *)0x40001004UL)
#define T1_RELOAD    (*(volatile uint32_t *)0x40001008UL)
#define NVIC_ISER0   (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_ICER0   (*(volatile uint32_t *)0xE000E180UL)
#define NVIC_ICPR0   (*(volatile uint32_t *)0xE000E280UL)

#define MAXSEQ       8192u
#define LAT_MAX      12u      /* timer ticks from expiry to the engine step */
#define SOAK_PERIOD  300u     /* timer ticks between soak steps */

/* ------------------------------------------------------------------------ */
/* Frames                                                                     */

static uint8_t frame_byte(uint32_t seq, uint32_t i)
{
	if (i == 0u) {
		return (uint8_t)(seq & 0xFFu);
	}
	if (i == 1u) {
		return (uint8_t)(0xA0u | ((seq >> 8) & 0x1Fu));
	}
	return (uint8_t)(seq * 37u + i * 11u + 5u);
}

static uint32_t tag_of(uint32_t seq)
{
	return 0x7A000000u + seq * 3u;
}

static int seq_of_tag(uint32_t tag, uint32_t *seq)
{
	if (tag < 0x7A000000u || (tag - 0x7A000000u) % 3u != 0u || (tag - 0x7A000000u) / 3u >= MAXSEQ) {
		return 0;
	}
	*seq = (tag - 0x7A000000u) / 3u;
	return 1;
}

/* ------------------------------------------------------------------------ */
/* Model                                                                      */

static uint16_t acc_list[MAXSEQ];        /* accepted seqs, in order */
static uint16_t acc_len[MAXSEQ];          /* by seq */
static volatile uint32_t acc_count;       /* frames accepted */
static volatile uint32_t wire_pos;        /* acc_list index the engine takes next */
static uint32_t rep_pos;                  /* acc_list index reported next */
static volatile uint8_t completed[MAXSEQ];
static volatile uint32_t status_of[MAXSEQ];
static uint32_t next_seq;
static uint32_t resumes;
static volatile uint32_t halts;

/* ------------------------------------------------------------------------ */
/* Engine events: written by whoever runs engine_step, read by thread mode  */

enum { EV_WIRE_OK = 1, EV_WIRE_BAD, EV_BAD_ADDR, EV_PAST_RING, EV_HALT, EV_MASKED, EV_LEN_BAD };

struct ev {
	uint32_t kind, a, b, c, d;
};

static struct ev evlog[64];
static volatile uint32_t ev_w, ev_r;
static volatile uint32_t ev_lost;

static void ev_put(uint32_t kind, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	uint32_t w = ev_w;
	if (w - ev_r >= 64u) {
		ev_lost++;
		return;
	}
	evlog[w % 64u] = (struct ev){kind, a, b, c, d};
	ev_w = w + 1u;
}

/* ------------------------------------------------------------------------ */
/* Engine                                                                     */

enum { E_IDLE, E_BUSY };

static tx_desc_t *volatile eng_ring;
static volatile uint32_t eng_idx;
static volatile uint32_t eng_state;
static volatile uint32_t eng_left;
static volatile uint32_t eng_ctrl;
static volatile int32_t eng_seq;          /* frame being sent, -1 unknown */
static volatile uint32_t eng_status;
static volatile int eng_halted;
static volatile int eng_broken;
static volatile uint32_t fail_next;       /* status for the next frame taken */
static volatile uint32_t fetches;
static volatile uint32_t soak_fail_every; /* soak: frame f with f % 7 == 3 fails */
static uint8_t fifo[TX_FRAME_MAX];

static void dmb(void)
{
	__asm__ volatile("dmb" ::: "memory");
}

static int addr_ok(uint32_t addr, uint32_t len)
{
	if (addr >= 0x20000000u && addr + len <= 0x20400000u && addr + len >= addr) {
		return 1;
	}
	return addr < 0x00400000u && addr + len <= 0x00400000u;
}

static void engine_take(tx_desc_t *d, uint32_t ctrl)
{
	uint32_t len = ctrl & TXD_LEN_MASK;
	uint32_t addr = d->addr;
	uint32_t f = fetches;

	fetches = f + 1u;
	eng_ctrl = ctrl;
	eng_seq = -1;
	eng_status = TXS_OK;
	if (fail_next != 0u) {
		eng_status = fail_next;
		fail_next = 0u;
	} else if (soak_fail_every != 0u && f % soak_fail_every == 3u) {
		eng_status = 1u + f % 3u;
	}
	eng_left = 1u + len / 32u;
	eng_state = E_BUSY;

	uint32_t exp_seq = 0xFFFFFFFFu, exp_len = 0u;
	if (wire_pos < acc_count) {
		exp_seq = acc_list[wire_pos];
		exp_len = acc_len[exp_seq];
	}
	if (len == 0u || len > TX_FRAME_MAX) {
		ev_put(EV_LEN_BAD, len, exp_seq, exp_len, 0);
		return;
	}
	if (!addr_ok(addr, len)) {
		ev_put(EV_BAD_ADDR, addr, len, exp_seq, 0);
		return;
	}
	memcpy(fifo, (const void *)(uintptr_t)addr, len);
	int match = exp_seq != 0xFFFFFFFFu && len == exp_len;
	for (uint32_t i = 0; match && i < len; i++) {
		if (fifo[i] != frame_byte(exp_seq, i)) {
			match = 0;
		}
	}
	if (match) {
		eng_seq = (int32_t)exp_seq;
		wire_pos = wire_pos + 1u;
		ev_put(EV_WIRE_OK, exp_seq, len, 0, 0);
		return;
	}
	/* whose bytes are these? */
	uint32_t guess = 0xFFFFFFFFu;
	if (len >= 2u) {
		uint32_t s = fifo[0] | ((uint32_t)(fifo[1] & 0x1Fu) << 8);
		int same = (fifo[1] & 0xE0u) == 0xA0u;
		for (uint32_t i = 0; same && i < len; i++) {
			if (fifo[i] != frame_byte(s, i)) {
				same = 0;
			}
		}
		if (same) {
			guess = s;
		}
	}
	ev_put(EV_WIRE_BAD, len, exp_seq, exp_len, guess);
}

static void engine_step(void)
{
	tx_desc_t *r = eng_ring;
	if (r == NULL || eng_halted || eng_broken) {
		return;
	}
	if (eng_state == E_IDLE) {
		uint32_t ctrl = r[eng_idx].ctrl;
		if ((ctrl & TXD_OWN) != 0u) {
			engine_take(&r[eng_idx], ctrl);
		}
		return;
	}
	if (eng_left != 0u) {
		eng_left = eng_left - 1u;
		return;
	}
	/* frame out: status, then OWN clear */
	uint32_t st = eng_status;
	r[eng_idx].status = st;
	dmb();
	r[eng_idx].ctrl = eng_ctrl & ~TXD_OWN;
	if (eng_seq >= 0) {
		status_of[eng_seq] = st;
		completed[eng_seq] = 1u;
	}
	eng_state = E_IDLE;
	if ((eng_ctrl & TXD_EOR) != 0u) {
		eng_idx = 0u;
	} else if (eng_idx + 1u >= TX_RING_SIZE) {
		eng_broken = 1;
		ev_put(EV_PAST_RING, 0, 0, 0, 0);
	} else {
		eng_idx = eng_idx + 1u;
	}
	if (st != TXS_OK) {
		eng_halted = 1;
		halts = halts + 1u;
		ev_put(EV_HALT, eng_seq >= 0 ? (uint32_t)eng_seq : 0xFFFFFFFFu, st, 0, 0);
	}
}

/* Nothing to do for the engine without new ownership from the driver. */
static int engine_idle(void)
{
	if (eng_ring == NULL || eng_halted || eng_broken) {
		return 1;
	}
	return eng_state == E_IDLE && (eng_ring[eng_idx].ctrl & TXD_OWN) == 0u;
}

/* ---- timer0: one-shot and periodic engine steps --------------------------- */

static volatile int shot_mode;   /* 1: one step then stop; 2: periodic */
static volatile uint32_t shot_reload;
static volatile uint32_t shots_fired;

void TIMER0_Handler(void)
{
	uint32_t v = T0_VALUE;
	uint32_t late = shot_reload - v;
	T0_INTCLR = 1;
	if (shot_mode == 1) {
		T0_CTRL = 0;
		shot_mode = 0;
	}
	if (shot_reload == 0xFFFFFFFFu && late > LAT_MAX && late < 0x80000000u) {
		ev_put(EV_MASKED, late, 0, 0, 0);
	}
	shots_fired = shots_fired + 1u;
	engine_step();
}

static void shot_arm(uint32_t ticks)
{
	T0_CTRL = 0;
	T0_INTCLR = 1;
	NVIC_ICPR0 = 1u << 8;
	shot_reload = 0xFFFFFFFFu;
	T0_RELOAD = 0xFFFFFFFFu;
	T0_VALUE = ticks;
	shot_mode = 1;
	T0_CTRL = 1u | 8u;
}

static void shot_disarm(void)
{
	T0_CTRL = 0;
	shot_mode = 0;
	T0_INTCLR = 1;
	NVIC_ICPR0 = 1u << 8;
}

static void periodic_start(uint32_t ticks)
{
	T0_CTRL = 0;
	T0_INTCLR = 1;
	NVIC_ICPR0 = 1u << 8;
	shot_reload = ticks - 1u;
	T0_RELOAD = ticks - 1u;
	T0_VALUE = ticks - 1u;
	shot_mode = 2;
	T0_CTRL = 1u | 8u;
}

static uint32_t now_ticks(void)
{
	return 0xFFFFFFFFu - T1_VALUE;
}

static void pad(uint32_t p)
{
	switch (p) {
	case 2:
		__asm__ volatile("nop");
		/* fall through */
	case 1:
		__asm__ volatile("nop");
		/* fall through */
	default:
		break;
	}
}

/* ------------------------------------------------------------------------ */
/* Reporting                                                                  */

static int quiet;
static uint32_t errors;
static char first_error[160];

static void problem(const char *msg)
{
	errors++;
	if (errors == 1u) {
		snprintf(first_error, sizeof first_error, "%s", msg);
	}
	if (!quiet) {
		printf("harness: %s\n", msg);
	}
}

static void flush_events(void)
{
	char m[160];
	while (ev_r != ev_w) {
		struct ev e = evlog[ev_r % 64u];
		ev_r = ev_r + 1u;
		switch (e.kind) {
		case EV_WIRE_OK:
			if (!quiet) {
				printf("wire %lu len %lu\n", (unsigned long)e.a, (unsigned long)e.b);
			}
			break;
		case EV_WIRE_BAD:
			if (e.b == 0xFFFFFFFFu) {
				snprintf(m, sizeof m, "engine took a %lu-byte frame that was never queued", (unsigned long)e.a);
			} else if (e.d != 0xFFFFFFFFu) {
				snprintf(m, sizeof m, "engine took frame %lu (len %lu) where frame %lu (len %lu) was due",
				         (unsigned long)e.d, (unsigned long)e.a, (unsigned long)e.b, (unsigned long)e.c);
			} else {
				snprintf(m, sizeof m, "engine took a corrupt frame (len %lu) where frame %lu (len %lu) was due",
				         (unsigned long)e.a, (unsigned long)e.b, (unsigned long)e.c);
			}
			problem(m);
			break;
		case EV_LEN_BAD:
			snprintf(m, sizeof m, "engine took a descriptor with LEN %lu where frame %lu (len %lu) was due",
			         (unsigned long)e.a, (unsigned long)e.b, (unsigned long)e.c);
			problem(m);
			break;
		case EV_BAD_ADDR:
			snprintf(m, sizeof m, "engine took a descriptor with addr 0x%08lx (len %lu)", (unsigned long)e.a, (unsigned long)e.b);
			problem(m);
			break;
		case EV_PAST_RING:
			problem("engine ran past the end of the ring (no EOR on the last descriptor)");
			break;
		case EV_HALT:
			if (!quiet) {
				printf("engine halted: frame %ld status %lu\n", (long)(int32_t)e.a, (unsigned long)e.b);
			}
			break;
		case EV_MASKED:
			snprintf(m, sizeof m, "engine interrupt held off for %lu timer ticks (interrupts masked)", (unsigned long)e.a);
			problem(m);
			break;
		default:
			break;
		}
	}
	if (ev_lost != 0u) {
		ev_lost = 0u;
		problem("engine event log overflow");
	}
}

/* ---- provided functions ------------------------------------------------- */

static int started;

void txdma_start(tx_desc_t *ring)
{
	if (started || ring == NULL || ((uintptr_t)ring % TX_DESC_ALIGN) != 0u) {
		printf("harness: bad txdma_start call\n");
		exit(3);
	}
	for (uint32_t i = 0; i < TX_RING_SIZE; i++) {
		if ((ring[i].ctrl & TXD_OWN) != 0u) {
			printf("harness: descriptor %lu owned by the engine at start\n", (unsigned long)i);
			exit(3);
		}
	}
	started = 1;
	eng_idx = 0u;
	eng_state = E_IDLE;
	eng_ring = ring;
}

void txdma_resume(void)
{
	resumes++;
	if (!eng_halted) {
		problem("txdma_resume() called while the engine was not halted");
		return;
	}
	if (!quiet) {
		printf("resume\n");
	}
	eng_halted = 0;
}

void tx_complete(uint32_t tag, uint32_t status)
{
	char m[160];
	uint32_t seq;

	if (!seq_of_tag(tag, &seq)) {
		snprintf(m, sizeof m, "tx_complete with unknown tag 0x%08lx", (unsigned long)tag);
		problem(m);
		return;
	}
	if (!quiet) {
		printf("done %lu status %lu\n", (unsigned long)seq, (unsigned long)status);
	}
	if (rep_pos >= acc_count) {
		snprintf(m, sizeof m, "frame %lu reported, but every accepted frame was reported already", (unsigned long)seq);
		problem(m);
		return;
	}
	uint32_t due = acc_list[rep_pos];
	if (seq != due) {
		snprintf(m, sizeof m, "frame %lu reported where frame %lu was due", (unsigned long)seq, (unsigned long)due);
		problem(m);
		return;
	}
	if (!completed[seq]) {
		snprintf(m, sizeof m, "frame %lu reported before the engine had finished it", (unsigned long)seq);
		problem(m);
		rep_pos++;
		return;
	}
	if (status != status_of[seq]) {
		snprintf(m, sizeof m, "frame %lu reported with status %lu, the engine wrote %lu",
		         (unsigned long)seq, (unsigned long)status, (unsigned long)status_of[seq]);
		problem(m);
	}
	rep_pos++;
}

/* ------------------------------------------------------------------------ */
/* Driving the answer                                                         */

static uint8_t txbuf[TX_FRAME_MAX + 16];

static void fill(uint32_t seq, uint32_t len)
{
	for (uint32_t i = 0; i < len && i < sizeof txbuf; i++) {
		txbuf[i] = frame_byte(seq, i);
	}
}

static void scribble(void)
{
	memset(txbuf, 0xEE, sizeof txbuf);
}

static uint32_t in_use(void)
{
	return acc_count - rep_pos;
}

static void check_free(void)
{
	char m[120];
	uint32_t f = tx_free();
	if (f != TX_RING_SIZE - in_use()) {
		snprintf(m, sizeof m, "tx_free() returned %lu with %lu descriptors in use",
		         (unsigned long)f, (unsigned long)in_use());
		problem(m);
	}
}

/* Judge one tx_send result against the model (busy: descriptors in use
 * before the call). */
static void judge_send(uint32_t seq, uint32_t len, int r, uint32_t busy)
{
	char m[160];
	int valid = len >= 1u && len <= TX_FRAME_MAX;

	if (r == TX_OK) {
		if (!valid) {
			snprintf(m, sizeof m, "frame %lu of length %lu accepted", (unsigned long)seq, (unsigned long)len);
			problem(m);
		} else if (busy >= TX_RING_SIZE) {
			snprintf(m, sizeof m, "frame %lu accepted with every descriptor in use", (unsigned long)seq);
			problem(m);
		}
	} else if (r == TX_FULL) {
		if (!valid) {
			snprintf(m, sizeof m, "length %lu answered TX_FULL, not TX_EINVAL", (unsigned long)len);
			problem(m);
		} else if (busy < TX_RING_SIZE) {
			snprintf(m, sizeof m, "TX_FULL with %lu of %u descriptors in use", (unsigned long)busy, TX_RING_SIZE);
			problem(m);
		}
	} else if (r == TX_EINVAL) {
		if (valid) {
			snprintf(m, sizeof m, "length %lu answered TX_EINVAL", (unsigned long)len);
			problem(m);
		}
	} else {
		snprintf(m, sizeof m, "tx_send returned %d", r);
		problem(m);
	}
}

/* Queue frame `seq`. The frame is entered in the model before the call,
 * since the engine may take it before tx_send() returns. */
static int do_send(uint32_t seq, uint32_t len, int shot, uint32_t k, uint32_t p)
{
	uint32_t busy = in_use();
	uint32_t before = acc_count;
	int room = seq < MAXSEQ && acc_count < MAXSEQ;

	fill(seq, len);
	if (room) {
		acc_len[seq] = (uint16_t)(len <= TX_FRAME_MAX ? len : 0u);
		acc_list[acc_count] = (uint16_t)seq;
		acc_count = before + 1u;
	}
	if (shot) {
		shot_arm(k);
		pad(p);
	}
	int r = tx_send(txbuf, len, tag_of(seq));
	if (shot) {
		shot_disarm();
	}
	scribble();
	judge_send(seq, len, r, busy);
	if (room && r != TX_OK) {
		if (wire_pos > before) {
			char m[120];
			snprintf(m, sizeof m, "frame %lu was taken by the engine, yet tx_send returned %d", (unsigned long)seq, r);
			problem(m);
		} else {
			acc_count = before;
		}
	}
	return r;
}

static const char *ret_name(int r)
{
	switch (r) {
	case TX_OK:
		return "ok";
	case TX_FULL:
		return "full";
	case TX_EINVAL:
		return "einval";
	default:
		return "?";
	}
}

static void run_engine(uint32_t limit)
{
	for (uint32_t i = 0; i < limit && !engine_idle(); i++) {
		engine_step();
		flush_events();
	}
}

/* ---- sweeps --------------------------------------------------------------- */

static uint32_t frame_len_for(uint32_t seq)
{
	return 1u + (seq * 53u + 17u) % TX_FRAME_MAX;
}

static int sweep_failed(const char *what, uint32_t k, uint32_t p)
{
	if (errors == 0u) {
		return 0;
	}
	printf("%s: FAILED at offset %lu phase %lu: %s\n", what, (unsigned long)k, (unsigned long)p, first_error);
	return 1;
}

static void drain_all(void)
{
	for (int i = 0; i < 20; i++) {
		run_engine(1000);
		(void)tx_reclaim();
		flush_events();
		if (in_use() == 0u && engine_idle()) {
			break;
		}
	}
}

/* Restart the answer as a fresh boot would (the engine is idle and every
 * frame is reclaimed): its .data from the load image, its .bss zeroed (the
 * linker script keeps both apart), the engine back at ring[0] and not
 * started, then tx_init() once for this boot. After it, every descriptor
 * holds what tx_init() left in it, as on the first use after power-on. */
extern uint32_t _sidata, _sdata;
extern uint32_t __answer_data_start, __answer_data_end, __answer_bss_start, __answer_bss_end;

static void reboot_answer(void)
{
	uint8_t *ds = (uint8_t *)&__answer_data_start;
	uint8_t *de = (uint8_t *)&__answer_data_end;
	uint8_t *bs = (uint8_t *)&__answer_bss_start;
	uint8_t *be = (uint8_t *)&__answer_bss_end;
	const uint8_t *load = (const uint8_t *)&_sidata + (ds - (uint8_t *)&_sdata);

	shot_disarm();
	eng_ring = NULL;
	started = 0;
	eng_idx = 0u;
	eng_state = E_IDLE;
	eng_left = 0u;
	eng_halted = 0;
	memcpy(ds, load, (size_t)(de - ds));
	memset(bs, 0, (size_t)(be - bs));
	tx_init();
	if (!started) {
		problem("tx_init did not call txdma_start");
	}
	check_free();
}

static void sweep_send(void)
{
	quiet = 1;
	errors = 0;
	drain_all();
	if (sweep_failed("sweep send", 0, 0)) {
		quiet = 0;
		return;
	}
	/* how long is one tx_send()? */
	uint32_t seq = next_seq++;
	uint32_t len = frame_len_for(seq);
	fill(seq, len);
	uint32_t t0 = now_ticks();
	int r = do_send(seq, len, 0, 0, 0);
	uint32_t dur = now_ticks() - t0;
	(void)r;
	drain_all();
	if (dur > 600u) {
		dur = 600u;
	}
	for (uint32_t k = 1; k <= dur + 3u; k++) {
		for (uint32_t p = 0; p < 3u; p++) {
			/* every offset sees each slot's first use after tx_init()
			 * and its reuse after a reclaim */
			reboot_answer();
			if (sweep_failed("sweep send", k, p)) {
				quiet = 0;
				return;
			}
			for (uint32_t s = 0; s < 2u * TX_RING_SIZE; s++) {
				seq = next_seq++;
				len = frame_len_for(seq);
				r = do_send(seq, len, 1, k, p);
				flush_events();
				if (r != TX_OK) {
					problem("tx_send refused a frame with every descriptor free");
				}
				run_engine(1000);
				uint32_t n = tx_reclaim();
				flush_events();
				if (n != 1u && errors == 0u) {
					char m[120];
					snprintf(m, sizeof m, "tx_reclaim() returned %lu for one finished frame", (unsigned long)n);
					problem(m);
				}
				check_free();
				if (in_use() != 0u || wire_pos != acc_count) {
					problem("frame not sent or not reclaimed");
				}
				if (sweep_failed("sweep send", k, p)) {
					quiet = 0;
					return;
				}
				if (next_seq >= MAXSEQ - 16u) {
					break;
				}
			}
		}
	}
	quiet = 0;
	printf("sweep send: ok\n");
}

/* Frames A and B queued, A taken; A's completion fires k ticks into
 * tx_reclaim(). A fails on every other round. */
static void sweep_reclaim(void)
{
	quiet = 1;
	errors = 0;
	drain_all();
	if (sweep_failed("sweep reclaim", 0, 0)) {
		quiet = 0;
		return;
	}
	/* how long is a tx_reclaim() of one finished frame? */
	uint32_t seq = next_seq++;
	(void)do_send(seq, frame_len_for(seq), 0, 0, 0);
	run_engine(1000);
	uint32_t t0 = now_ticks();
	(void)tx_reclaim();
	uint32_t dur = now_ticks() - t0;
	drain_all();
	if (dur > 600u) {
		dur = 600u;
	}
	uint32_t round = 0;
	for (uint32_t k = 1; k <= dur + 3u; k++) {
		for (uint32_t p = 0; p < 3u; p++) {
			for (uint32_t s = 0; s < TX_RING_SIZE; s++) {
				uint32_t fail = (round % 2u) ? 1u + (round / 2u) % 3u : 0u;
				uint32_t resumes0 = resumes;
				round++;
				uint32_t a = next_seq++;
				uint32_t b = next_seq++;
				(void)do_send(a, frame_len_for(a), 0, 0, 0);
				(void)do_send(b, frame_len_for(b), 0, 0, 0);
				fail_next = fail;
				engine_step();          /* take A */
				while (eng_state == E_BUSY && eng_left != 0u) {
					engine_step();
				}
				flush_events();
				shot_arm(k);
				pad(p);
				uint32_t n = tx_reclaim();
				shot_disarm();
				flush_events();
				if (eng_state == E_BUSY) {
					engine_step();      /* A finishes now */
				}
				n += tx_reclaim();
				flush_events();
				run_engine(1000);
				n += tx_reclaim();
				run_engine(1000);
				n += tx_reclaim();
				flush_events();
				if (errors == 0u) {
					char m[160];
					if (rep_pos != acc_count) {
						snprintf(m, sizeof m, "frame %lu never reported (engine %s)",
						         (unsigned long)acc_list[rep_pos], eng_halted ? "still halted" : "idle");
						problem(m);
					} else if (n != 2u) {
						snprintf(m, sizeof m, "tx_reclaim() returned %lu in all for two frames", (unsigned long)n);
						problem(m);
					} else if (resumes - resumes0 != (fail ? 1u : 0u)) {
						snprintf(m, sizeof m, "txdma_resume() called %lu times for %u failed frames",
						         (unsigned long)(resumes - resumes0), fail ? 1u : 0u);
						problem(m);
					}
				}
				check_free();
				if (sweep_failed("sweep reclaim", k, p)) {
					quiet = 0;
					return;
				}
				if (next_seq >= MAXSEQ - 16u) {
					break;
				}
			}
		}
	}
	quiet = 0;
	printf("sweep reclaim: ok\n");
}

static void soak(uint32_t frames)
{
	char m[160];
	quiet = 1;
	errors = 0;
	drain_all();
	uint32_t halts0 = halts;
	uint32_t resumes0 = resumes;
	/* frames taken during the soak count from 0; f % 7 == 3 fails */
	fetches = 0u;
	soak_fail_every = 7u;
	periodic_start(SOAK_PERIOD);
	uint32_t last = now_ticks();
	uint32_t last_rep = rep_pos;
	for (uint32_t i = 0; i < frames && errors == 0u; i++) {
		uint32_t seq = next_seq++;
		uint32_t len = frame_len_for(seq);
		for (;;) {
			int r = do_send(seq, len, 0, 0, 0);
			flush_events();
			if (r != TX_FULL || errors != 0u) {
				break;
			}
			(void)tx_reclaim();
			flush_events();
			check_free();
			if (rep_pos != last_rep) {
				last_rep = rep_pos;
				last = now_ticks();
			} else if (now_ticks() - last > 25000u * 20u) {
				snprintf(m, sizeof m, "no frame reported for 20 ms with the ring full (engine %s)",
				         eng_halted ? "halted" : "running");
				problem(m);
				break;
			}
		}
		if (i % 3u == 2u) {
			(void)tx_reclaim();
			flush_events();
		}
	}
	last = now_ticks();
	last_rep = rep_pos;
	while (errors == 0u && in_use() != 0u) {
		(void)tx_reclaim();
		flush_events();
		if (rep_pos != last_rep) {
			last_rep = rep_pos;
			last = now_ticks();
		} else if (now_ticks() - last > 25000u * 20u) {
			snprintf(m, sizeof m, "frame %lu never reported (engine %s)", (unsigned long)acc_list[rep_pos],
			         eng_halted ? "halted" : "running");
			problem(m);
		}
	}
	shot_disarm();
	soak_fail_every = 0u;
	flush_events();
	check_free();
	if (errors == 0u && resumes - resumes0 != halts - halts0) {
		snprintf(m, sizeof m, "%lu txdma_resume() calls for %lu failed frames",
		         (unsigned long)(resumes - resumes0), (unsigned long)(halts - halts0));
		problem(m);
	}
	quiet = 0;
	if (errors != 0u) {
		printf("soak: FAILED: %s\n", first_error);
	} else {
		printf("soak: %lu frames, %lu failed, ok\n", (unsigned long)frames, (unsigned long)(halts - halts0));
	}
}

/* ------------------------------------------------------------------------ */
/* Script                                                                     */

static char script[2048];

static int uart_getc(void)
{
	while ((UART0_STATE & 2u) == 0u) {
	}
	return (int)(UART0_DATA & 0xFFu);
}

static void read_script(void)
{
	uint32_t n = 0;
	uint32_t line_start = 0;
	for (;;) {
		int c = uart_getc();
		if (c == '\r') {
			continue;
		}
		if (n + 1u >= sizeof script) {
			printf("harness: script too long\n");
			exit(2);
		}
		script[n++] = (char)c;
		if (c == '\n') {
			if (n - line_start >= 4u && strncmp(&script[line_start], "end", 3) == 0) {
				break;
			}
			line_start = n;
		}
	}
	script[n] = '\0';
}

int main(void)
{
	UART0_BAUD = 16;
	UART0_CTRL = 3u;
	/* keep QEMU's main loop turning while UART0 is polled */
	*(volatile unsigned int *)0x40002020u = 2500u;
	*(volatile unsigned int *)0x40002028u = 0xC2u;
	/* timer1: free-running 25 MHz time base, no interrupt */
	T1_CTRL = 0;
	T1_RELOAD = 0xFFFFFFFFu;
	T1_VALUE = 0xFFFFFFFFu;
	T1_CTRL = 1u;
	NVIC_ISER0 = 1u << 8;

	read_script();

	tx_init();
	if (!started) {
		printf("harness: tx_init did not call txdma_start\n");
		exit(3);
	}
	check_free();

	char *save = NULL;
	for (char *line = strtok_r(script, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char cmd[16] = {0};
		unsigned long x = 0, y = 1;
		int nf = sscanf(line, "%15s %lu %lu", cmd, &x, &y);
		if (nf < 1) {
			continue;
		}
		if (strcmp(cmd, "send") == 0) {
			if (nf < 3) {
				y = 1;
			}
			for (unsigned long i = 0; i < y; i++) {
				uint32_t seq = next_seq++;
				int r = do_send(seq, (uint32_t)x, 0, 0, 0);
				printf("send %lu len %lu: %s\n", (unsigned long)seq, x, ret_name(r));
				flush_events();
			}
			check_free();
		} else if (strcmp(cmd, "free") == 0) {
			uint32_t f = tx_free();
			printf("free %lu\n", (unsigned long)f);
			check_free();
		} else if (strcmp(cmd, "run") == 0) {
			run_engine(100000);
		} else if (strcmp(cmd, "step") == 0) {
			for (unsigned long i = 0; i < x; i++) {
				engine_step();
				flush_events();
			}
		} else if (strcmp(cmd, "reclaim") == 0) {
			uint32_t n = tx_reclaim();
			printf("reclaim %lu\n", (unsigned long)n);
			flush_events();
			check_free();
		} else if (strcmp(cmd, "fail") == 0) {
			fail_next = (uint32_t)x;
		} else if (strcmp(cmd, "sweep_send") == 0) {
			sweep_send();
		} else if (strcmp(cmd, "sweep_reclaim") == 0) {
			sweep_reclaim();
		} else if (strcmp(cmd, "soak") == 0) {
			soak((uint32_t)x);
		} else if (strcmp(cmd, "end") == 0) {
			break;
		} else {
			printf("harness: bad command %s\n", cmd);
			exit(2);
		}
	}
	flush_events();
	printf("end: accepted %lu sent %lu reported %lu free %lu\n", (unsigned long)acc_count,
	       (unsigned long)wire_pos, (unsigned long)rep_pos, (unsigned long)tx_free());
	exit(0);
}
