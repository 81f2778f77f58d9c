/*
 * Accepted variant: every record starts with a commit flag that is
 * programmed last (the rest of the record goes first, the flag byte at the
 * lowest address after it), values are looked up by scanning the log (no
 * RAM index: each lookup walks the log), and a log that ends in an unparsable cut record is not
 * repaired at mount: the sector is treated as full, so the next kv_set
 * compacts it.
 *
 *   sector:  epoch (4 bytes, little endian) | 0x55 (sector committed) | 3 spare bytes | records
 *   record:  flag (0x3C committed, 0xFF not) | key | len | value[len]
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kvlog.h"

enum {
	SEC_HDR = 8,
	SEC_MARK = 0x55,
	REC_HDR = 3,
	FLAG_OK = 0x3C,
	ERASED = 0xFF,
};

static struct {
	bool ready;
	uint32_t sec;     /* active sector */
	uint32_t epoch;
	uint32_t end;     /* first byte a new record may use */
} st;

static uint32_t addr(uint32_t sec, uint32_t off)
{
	return sec * FLASH_SECTOR_SIZE + off;
}

static bool sector_committed(uint32_t sec, uint32_t *epoch, int *err)
{
	uint8_t h[5];

	*err = flash_read(addr(sec, 0), h, sizeof h);
	if (*err != FLASH_OK || h[4] != SEC_MARK)
		return false;
	*epoch = h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24;
	return true;
}

/*
 * Walks the log of sector sec. For each committed record calls visit (if
 * not NULL). Returns the offset after the last record it could step over,
 * FLASH_SECTOR_SIZE when the log ends in bytes it cannot parse, or -1 on a
 * flash error.
 */
typedef void (*visit_fn)(uint32_t off, const uint8_t hdr[REC_HDR], void *ctx);

static long walk(uint32_t sec, visit_fn visit, void *ctx, bool check_tail)
{
	uint32_t off = SEC_HDR;

	while (off + REC_HDR <= FLASH_SECTOR_SIZE) {
		uint8_t h[REC_HDR];

		if (flash_read(addr(sec, off), h, REC_HDR) != FLASH_OK)
			return -1;
		if (h[0] == ERASED && h[1] == ERASED && h[2] == ERASED) {
			/* free space only if nothing after it was programmed */
			uint8_t b;
			for (uint32_t o = off; check_tail && o < FLASH_SECTOR_SIZE; o++) {
				if (flash_read(addr(sec, o), &b, 1) != FLASH_OK)
					return -1;
				if (b != ERASED)
					return FLASH_SECTOR_SIZE;
			}
			return off;
		}
		if (h[1] < KV_KEY_MIN || h[1] > KV_KEY_MAX || h[2] > KV_VALUE_MAX ||
		    off + REC_HDR + h[2] > FLASH_SECTOR_SIZE)
			return FLASH_SECTOR_SIZE;          /* cut before its length was written */
		if (h[0] == FLAG_OK && visit)
			visit(off, h, ctx);
		else if (h[0] != FLAG_OK && h[0] != ERASED)
			return FLASH_SECTOR_SIZE;
		off += REC_HDR + h[2];                  /* a cut record is stepped over */
	}
	return off;
}

struct find {
	uint8_t key;
	long off;
};

static void find_visit(uint32_t off, const uint8_t hdr[REC_HDR], void *ctx)
{
	struct find *f = ctx;

	if (hdr[1] == f->key)
		f->off = (long)off;
}

static long latest(uint32_t sec, uint8_t key)
{
	struct find f = { key, -1 };

	if (walk(sec, find_visit, &f, false) < 0)
		return -2;
	return f.off;
}

static int put_record(uint32_t sec, uint32_t off, uint8_t key, const void *val, size_t len)
{
	uint8_t body[2 + KV_VALUE_MAX];
	const uint8_t flag = FLAG_OK;

	body[0] = key;
	body[1] = (uint8_t)len;
	if (len)
		memcpy(&body[2], val, len);
	if (flash_program(addr(sec, off + 1u), body, 2u + len) != FLASH_OK ||
	    flash_program(addr(sec, off), &flag, 1) != FLASH_OK)
		return KV_EIO;
	return KV_OK;
}

static int commit_sector(uint32_t sec, uint32_t epoch)
{
	uint8_t e[4] = { (uint8_t)epoch, (uint8_t)(epoch >> 8), (uint8_t)(epoch >> 16), (uint8_t)(epoch >> 24) };
	const uint8_t mark = SEC_MARK;

	if (flash_program(addr(sec, 0), e, sizeof e) != FLASH_OK ||
	    flash_program(addr(sec, 4), &mark, 1) != FLASH_OK)
		return KV_EIO;
	return KV_OK;
}

static void mark_visit(uint32_t off, const uint8_t hdr[REC_HDR], void *ctx)
{
	uint8_t *keys = ctx;

	(void)off;
	keys[hdr[1]] = 1;
}

static int live_keys(uint8_t keys[KV_KEY_MAX + 1])
{
	int n = 0;

	memset(keys, 0, KV_KEY_MAX + 1);
	if (walk(st.sec, mark_visit, keys, false) < 0)
		return -1;
	for (unsigned k = KV_KEY_MIN; k <= KV_KEY_MAX; k++)
		n += keys[k];
	return n;
}

static int compact(void)
{
	uint32_t to = 1u - st.sec, w = SEC_HDR;
	uint8_t rec[REC_HDR + KV_VALUE_MAX];

	uint8_t keys[KV_KEY_MAX + 1];

	if (live_keys(keys) < 0 || flash_erase(to) != FLASH_OK)
		return KV_EIO;
	for (unsigned k = KV_KEY_MIN; k <= KV_KEY_MAX; k++) {
		long off;

		if (!keys[k])
			continue;
		off = latest(st.sec, (uint8_t)k);
		if (off == -2)
			return KV_EIO;
		if (off < 0)
			continue;
		if (flash_read(addr(st.sec, (uint32_t)off), rec, REC_HDR) != FLASH_OK ||
		    flash_read(addr(st.sec, (uint32_t)off + REC_HDR), &rec[REC_HDR], rec[2]) != FLASH_OK ||
		    put_record(to, w, rec[1], &rec[REC_HDR], rec[2]) != KV_OK)
			return KV_EIO;
		w += REC_HDR + rec[2];
	}
	if (commit_sector(to, st.epoch + 1u) != KV_OK || flash_erase(st.sec) != FLASH_OK)
		return KV_EIO;
	st.sec = to;
	st.epoch++;
	st.end = w;
	return KV_OK;
}

int kv_mount(void)
{
	uint32_t e0 = 0, e1 = 0;
	int err0, err1;
	bool ok0, ok1;
	long end;

	st.ready = false;
	ok0 = sector_committed(0, &e0, &err0);
	ok1 = sector_committed(1, &e1, &err1);
	if (err0 != FLASH_OK || err1 != FLASH_OK)
		return KV_EIO;

	if (ok0 && ok1) {
		st.sec = e1 > e0 ? 1u : 0u;
		st.epoch = e1 > e0 ? e1 : e0;
		if (flash_erase(1u - st.sec) != FLASH_OK)
			return KV_EIO;
	} else if (ok0 || ok1) {
		st.sec = ok0 ? 0u : 1u;
		st.epoch = ok0 ? e0 : e1;
	} else {
		if (flash_erase(0) != FLASH_OK || commit_sector(0, 0) != KV_OK)
			return KV_EIO;
		st.sec = 0;
		st.epoch = 0;
	}
	end = walk(st.sec, NULL, NULL, true);
	if (end < 0)
		return KV_EIO;
	st.end = (uint32_t)end;
	st.ready = true;
	return KV_OK;
}

int kv_get(uint8_t key, void *buf, size_t cap)
{
	uint8_t h[REC_HDR];
	long off;

	if (key < KV_KEY_MIN || key > KV_KEY_MAX || (!buf && cap))
		return KV_EINVAL;
	if (!st.ready)
		return KV_EIO;
	off = latest(st.sec, key);
	if (off == -2)
		return KV_EIO;
	if (off < 0)
		return KV_ENOENT;
	if (flash_read(addr(st.sec, (uint32_t)off), h, REC_HDR) != FLASH_OK)
		return KV_EIO;
	if (h[2] > cap)
		return KV_ESMALL;
	if (h[2] && flash_read(addr(st.sec, (uint32_t)off + REC_HDR), buf, h[2]) != FLASH_OK)
		return KV_EIO;
	return h[2];
}

int kv_set(uint8_t key, const void *val, size_t len)
{
	uint8_t keys[KV_KEY_MAX + 1];
	int n;

	if (key < KV_KEY_MIN || key > KV_KEY_MAX || len > KV_VALUE_MAX || (!val && len))
		return KV_EINVAL;
	if (!st.ready)
		return KV_EIO;
	n = live_keys(keys);
	if (n < 0) {
		st.ready = false;
		return KV_EIO;
	}
	if (!keys[key] && n >= 16)
		return KV_ENOSPC;
	if (st.end + REC_HDR + len > FLASH_SECTOR_SIZE) {
		if (compact() != KV_OK) {
			st.ready = false;
			return KV_EIO;
		}
		if (st.end + REC_HDR + len > FLASH_SECTOR_SIZE)
			return KV_ENOSPC;
	}
	if (put_record(st.sec, st.end, key, val, len) != KV_OK) {
		st.ready = false;
		return KV_EIO;
	}
	st.end += REC_HDR + (uint32_t)len;
	return KV_OK;
}
