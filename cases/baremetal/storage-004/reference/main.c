/*
 * WM-3 key/value store: a log of records in one sector of the two-sector
 * NOR flash, compacted into the other sector when full.
 *
 * Sector layout: an 8-byte header (4-byte generation, then the 4-byte magic
 * "KVL1", programmed last: a sector counts only once its magic is complete)
 * followed by records
 *
 *     key (1..254) | len (0..32) | value[len] | commit (0x00)
 *
 * programmed in one call in that order, so the commit byte is the last byte
 * to reach the flash: a record whose commit byte is still 0xFF was cut.
 *
 * Compaction: erase the other sector, copy the latest record of every key,
 * program the header with generation + 1 (the commit point), erase the old
 * sector. kv_mount() takes the valid sector with the highest generation and
 * erases the other one if it also has a valid header; a log that ends in a
 * cut record is compacted at mount so that appends never follow garbage.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kvlog.h"

#define HDR_SIZE      8u
#define REC_OVERHEAD  3u
#define COMMIT        0x00u
#define NO_RECORD     0xFFFFu
#define MAX_LIVE_KEYS 16u

static const uint8_t magic[4] = {'K', 'V', 'L', '1'};

static uint32_t active;          /* sector in use */
static uint32_t generation;      /* its generation */
static uint32_t tail;            /* offset of the first free byte in the active sector */
static uint16_t index_of[256];   /* offset of the latest record of each key, or NO_RECORD */
static int mounted;

static uint32_t sector_base(uint32_t s)
{
	return s * FLASH_SECTOR_SIZE;
}

/* Reads the header of sector s: 1 and its generation when the sector is committed. */
static int read_header(uint32_t s, uint32_t *gen)
{
	uint8_t h[HDR_SIZE];

	if (flash_read(sector_base(s), h, sizeof h) != FLASH_OK) {
		return -1;
	}
	if (memcmp(&h[4], magic, sizeof magic) != 0) {
		return 0;
	}
	*gen = (uint32_t)h[0] | ((uint32_t)h[1] << 8) | ((uint32_t)h[2] << 16) | ((uint32_t)h[3] << 24);
	return 1;
}

/* Scans the records of the active sector. Returns 1 when the log ends cleanly, 0 when it ends in a cut record, -1 on a flash error. */
static int scan(void)
{
	uint32_t off = HDR_SIZE;
	uint8_t hdr[2], commit;
	unsigned k;

	for (k = 0; k < 256u; k++) {
		index_of[k] = NO_RECORD;
	}
	while (off + REC_OVERHEAD <= FLASH_SECTOR_SIZE) {
		if (flash_read(sector_base(active) + off, hdr, 2) != FLASH_OK) {
			return -1;
		}
		if (hdr[0] == 0xFFu && hdr[1] == 0xFFu) {
			break;
		}
		if (hdr[0] < KV_KEY_MIN || hdr[0] > KV_KEY_MAX || hdr[1] > KV_VALUE_MAX ||
		    off + REC_OVERHEAD + hdr[1] > FLASH_SECTOR_SIZE) {
			tail = off;
			return 0;
		}
		if (flash_read(sector_base(active) + off + 2u + hdr[1], &commit, 1) != FLASH_OK) {
			return -1;
		}
		if (commit != COMMIT) {
			tail = off;
			return 0;
		}
		index_of[hdr[0]] = (uint16_t)off;
		off += REC_OVERHEAD + hdr[1];
	}
	tail = off;
	/* the rest of the sector must be erased, or appends would land on programmed bytes */
	for (; off < FLASH_SECTOR_SIZE; off++) {
		uint8_t b;
		if (flash_read(sector_base(active) + off, &b, 1) != FLASH_OK) {
			return -1;
		}
		if (b != 0xFFu) {
			return 0;
		}
	}
	return 1;
}

static int write_header(uint32_t s, uint32_t gen)
{
	uint8_t g[4] = {(uint8_t)gen, (uint8_t)(gen >> 8), (uint8_t)(gen >> 16), (uint8_t)(gen >> 24)};

	if (flash_program(sector_base(s), g, sizeof g) != FLASH_OK ||
	    flash_program(sector_base(s) + 4u, magic, sizeof magic) != FLASH_OK) {
		return KV_EIO;
	}
	return KV_OK;
}

/* Copies the latest record of every key into the other sector and makes it the active one. */
static int compact(void)
{
	uint32_t dst = active ^ 1u, off = HDR_SIZE;
	uint8_t rec[REC_OVERHEAD + KV_VALUE_MAX];
	unsigned k;

	if (flash_erase(dst) != FLASH_OK) {
		return KV_EIO;
	}
	for (k = KV_KEY_MIN; k <= KV_KEY_MAX; k++) {
		uint32_t n;
		if (index_of[k] == NO_RECORD) {
			continue;
		}
		if (flash_read(sector_base(active) + index_of[k], rec, 2) != FLASH_OK) {
			return KV_EIO;
		}
		n = REC_OVERHEAD + rec[1];
		if (flash_read(sector_base(active) + index_of[k], rec, n) != FLASH_OK ||
		    flash_program(sector_base(dst) + off, rec, n) != FLASH_OK) {
			return KV_EIO;
		}
		index_of[k] = (uint16_t)off;   /* RAM state is discarded if a later step fails */
		off += n;
	}
	if (write_header(dst, generation + 1u) != KV_OK) {
		return KV_EIO;
	}
	if (flash_erase(active) != FLASH_OK) {
		return KV_EIO;
	}
	active = dst;
	generation++;
	tail = off;
	return KV_OK;
}

int kv_mount(void)
{
	uint32_t g0 = 0, g1 = 0;
	int v0, v1, r;

	mounted = 0;
	v0 = read_header(0, &g0);
	v1 = read_header(1, &g1);
	if (v0 < 0 || v1 < 0) {
		return KV_EIO;
	}
	if (!v0 && !v1) {
		/* first boot (or both headers missing): start an empty store in sector 0 */
		if (flash_erase(0) != FLASH_OK || flash_erase(1) != FLASH_OK || write_header(0, 1u) != KV_OK) {
			return KV_EIO;
		}
		active = 0;
		generation = 1u;
	} else if (v0 && v1) {
		/* a compaction committed its new sector but did not erase the old one */
		active = (g1 > g0) ? 1u : 0u;
		generation = active ? g1 : g0;
		if (flash_erase(active ^ 1u) != FLASH_OK) {
			return KV_EIO;
		}
	} else {
		active = v0 ? 0u : 1u;
		generation = v0 ? g0 : g1;
	}
	r = scan();
	if (r < 0) {
		return KV_EIO;
	}
	if (r == 0 && compact() != KV_OK) {
		return KV_EIO;
	}
	mounted = 1;
	return KV_OK;
}

int kv_get(uint8_t key, void *buf, size_t cap)
{
	uint8_t len;
	uint32_t at;

	if (key < KV_KEY_MIN || key > KV_KEY_MAX || (buf == NULL && cap != 0u)) {
		return KV_EINVAL;
	}
	if (!mounted) {
		return KV_EIO;
	}
	if (index_of[key] == NO_RECORD) {
		return KV_ENOENT;
	}
	at = sector_base(active) + index_of[key];
	if (flash_read(at + 1u, &len, 1) != FLASH_OK) {
		return KV_EIO;
	}
	if (len > cap) {
		return KV_ESMALL;
	}
	if (len != 0u && flash_read(at + 2u, buf, len) != FLASH_OK) {
		return KV_EIO;
	}
	return (int)len;
}

int kv_set(uint8_t key, const void *val, size_t len)
{
	uint8_t rec[REC_OVERHEAD + KV_VALUE_MAX];
	uint32_t n = REC_OVERHEAD + (uint32_t)len;
	unsigned k, live = 0;

	if (key < KV_KEY_MIN || key > KV_KEY_MAX || len > KV_VALUE_MAX || (val == NULL && len != 0u)) {
		return KV_EINVAL;
	}
	if (!mounted) {
		return KV_EIO;
	}
	for (k = KV_KEY_MIN; k <= KV_KEY_MAX; k++) {
		live += (index_of[k] != NO_RECORD || k == key) ? 1u : 0u;
	}
	if (live > MAX_LIVE_KEYS) {
		return KV_ENOSPC;
	}
	if (tail + n > FLASH_SECTOR_SIZE) {
		if (compact() != KV_OK) {
			mounted = 0;
			return KV_EIO;
		}
		if (tail + n > FLASH_SECTOR_SIZE) {
			return KV_ENOSPC;
		}
	}
	rec[0] = key;
	rec[1] = (uint8_t)len;
	if (len != 0u) {
		memcpy(&rec[2], val, len);
	}
	rec[2 + len] = COMMIT;
	if (flash_program(sector_base(active) + tail, rec, n) != FLASH_OK) {
		mounted = 0;
		return KV_EIO;
	}
	index_of[key] = (uint16_t)tail;
	tail += n;
	return KV_OK;
}
