/* defect: the record's valid flag is its first byte, programmed before the key, length and value, so a record torn in its value bytes is accepted and its partly written value returned.
 * breaks: "A record is valid only once it is fully written: a partly written record must never be returned, in whole or in part."
 * must_fail: scenario_sweep_cuts_in_appends, scenario_cut_inside_record
 */
/*
 * main.c - power-loss-safe key/value log of the WM-3 water meter.
 *
 * Flash layout (one sector is active at a time):
 *
 *   sector header (8 bytes):
 *     0..3  generation, little endian (higher = newer)
 *     4..6  magic 'K' 'V' 'L'
 *     7     commit byte HDR_COMMIT, programmed last
 *
 *   records, back to back after the header:
 *     0        valid flag REC_COMMIT
 *     1        key (1..254)
 *     2        value length (0..32)
 *     3..      value bytes
 *
 * Every record and header is programmed with a single flash_program call.
 * A record whose flag byte is not REC_COMMIT is ignored. The first byte
 * after the last record is 0xFF, which marks the end of the log.
 *
 * Compaction erases the other sector, copies the latest record of each key
 * into it and commits its header (with the next generation) last; until
 * that header is committed the old sector stays the active one.
 *
 * kv_mount() (power never fails during it) compacts straight away when the
 * active sector ends in a torn record, so that the free area after the
 * write position is always erased.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kvlog.h"

#define HDR_SIZE      8u
#define HDR_COMMIT    0xA5u
#define REC_OVERHEAD  3u          /* flag, key, length */
#define REC_COMMIT    0x3Cu
#define ERASED        0xFFu
#define MAX_KEYS      16u

struct kv_entry {
    uint8_t  key;                 /* 0: unused entry */
    uint8_t  len;
    uint16_t off;                 /* offset of the value inside the sector */
};

static struct kv_entry index_tab[MAX_KEYS];
static uint32_t active;           /* active sector */
static uint32_t generation;       /* its generation */
static uint32_t wpos;             /* next free offset in the active sector */
static int      mounted;

static uint32_t sector_base(uint32_t s)
{
    return s * FLASH_SECTOR_SIZE;
}

static struct kv_entry *find_entry(uint8_t key)
{
    unsigned i;

    for (i = 0; i < MAX_KEYS; i++) {
        if (index_tab[i].key == key) {
            return &index_tab[i];
        }
    }
    return NULL;
}

static struct kv_entry *free_entry(void)
{
    return find_entry(0);
}

/* Reads the header of sector s; returns 1 and its generation when valid. */
static int read_header(uint32_t s, uint32_t *gen)
{
    uint8_t h[HDR_SIZE];

    if (flash_read(sector_base(s), h, sizeof h) != FLASH_OK) {
        return 0;
    }
    if (h[4] != 'K' || h[5] != 'V' || h[6] != 'L' || h[7] != HDR_COMMIT) {
        return 0;
    }
    *gen = (uint32_t)h[0] | ((uint32_t)h[1] << 8) |
           ((uint32_t)h[2] << 16) | ((uint32_t)h[3] << 24);
    return 1;
}

static int write_header(uint32_t s, uint32_t gen)
{
    uint8_t h[HDR_SIZE];

    h[0] = (uint8_t)gen;
    h[1] = (uint8_t)(gen >> 8);
    h[2] = (uint8_t)(gen >> 16);
    h[3] = (uint8_t)(gen >> 24);
    h[4] = 'K';
    h[5] = 'V';
    h[6] = 'L';
    h[7] = HDR_COMMIT;
    return flash_program(sector_base(s), h, sizeof h);
}

/* Programs one record at offset off of sector s. */
static int write_record(uint32_t s, uint32_t off, uint8_t key,
                        const void *val, size_t len)
{
    uint8_t rec[REC_OVERHEAD + KV_VALUE_MAX];

    rec[0] = REC_COMMIT;
    rec[1] = key;
    rec[2] = (uint8_t)len;
    if (len > 0) {
        memcpy(&rec[3], val, len);
    }
    return flash_program(sector_base(s) + off, rec, REC_OVERHEAD + len);
}

/*
 * Copies the latest value of every key into the other sector and makes it
 * the active one. On success the index points into the new sector.
 */
static int compact(void)
{
    uint32_t dst = active ^ 1u;
    uint32_t pos = HDR_SIZE;
    uint16_t new_off[MAX_KEYS];
    uint8_t  val[KV_VALUE_MAX];
    unsigned i;

    if (flash_erase(dst) != FLASH_OK) {
        return KV_EIO;
    }
    for (i = 0; i < MAX_KEYS; i++) {
        struct kv_entry *e = &index_tab[i];

        if (e->key == 0) {
            continue;
        }
        if (e->len > 0 &&
            flash_read(sector_base(active) + e->off, val, e->len) != FLASH_OK) {
            return KV_EIO;
        }
        if (write_record(dst, pos, e->key, val, e->len) != FLASH_OK) {
            return KV_EIO;
        }
        new_off[i] = (uint16_t)(pos + 3u);
        pos += REC_OVERHEAD + e->len;
    }
    /* The header commits the new sector: only now does it take over. */
    if (write_header(dst, generation + 1u) != FLASH_OK) {
        return KV_EIO;
    }

    for (i = 0; i < MAX_KEYS; i++) {
        if (index_tab[i].key != 0) {
            index_tab[i].off = new_off[i];
        }
    }
    active = dst;
    generation++;
    wpos = pos;
    return KV_OK;
}

/*
 * Scans the active sector, filling the index. Returns 1 when the log ends
 * cleanly (erased flash after the last record), 0 when it ends in a torn
 * record, or KV_EIO.
 */
static int scan_active(void)
{
    uint32_t base = sector_base(active);
    uint32_t pos = HDR_SIZE;
    uint8_t hdr[3];

    memset(index_tab, 0, sizeof index_tab);

    for (;;) {
        struct kv_entry *e;

        if (pos >= FLASH_SECTOR_SIZE) {
            break;
        }
        if (flash_read(base + pos, &hdr[0], 1) != FLASH_OK) {
            return KV_EIO;
        }
        if (hdr[0] == ERASED) {
            break;                               /* end of the log */
        }
        if (pos + REC_OVERHEAD > FLASH_SECTOR_SIZE) {
            wpos = pos;
            return 0;                            /* torn record */
        }
        if (flash_read(base + pos + 1u, &hdr[1], 2) != FLASH_OK) {
            return KV_EIO;
        }
        if (hdr[0] != REC_COMMIT ||
            hdr[1] < KV_KEY_MIN || hdr[1] > KV_KEY_MAX ||
            hdr[2] > KV_VALUE_MAX ||
            pos + REC_OVERHEAD + hdr[2] > FLASH_SECTOR_SIZE) {
            wpos = pos;
            return 0;                            /* torn record */
        }

        e = find_entry(hdr[1]);
        if (e == NULL) {
            e = free_entry();
        }
        if (e == NULL) {
            wpos = pos;
            return 0;      /* cannot happen with records written by kv_set */
        }
        e->key = hdr[1];
        e->len = hdr[2];
        e->off = (uint16_t)(pos + 3u);
        pos += REC_OVERHEAD + hdr[2];
    }

    /* The rest of the sector must be erased for new records to go there. */
    wpos = pos;
    while (pos < FLASH_SECTOR_SIZE) {
        uint8_t chunk[32];
        uint32_t n = FLASH_SECTOR_SIZE - pos;
        uint32_t i;

        if (n > sizeof chunk) {
            n = sizeof chunk;
        }
        if (flash_read(base + pos, chunk, n) != FLASH_OK) {
            return KV_EIO;
        }
        for (i = 0; i < n; i++) {
            if (chunk[i] != ERASED) {
                return 0;
            }
        }
        pos += n;
    }
    return 1;
}

int kv_mount(void)
{
    uint32_t g0 = 0, g1 = 0;
    int v0, v1, r;

    mounted = 0;
    memset(index_tab, 0, sizeof index_tab);

    v0 = read_header(0, &g0);
    v1 = read_header(1, &g1);

    if (!v0 && !v1) {
        /* First boot (or nothing usable): start an empty store. */
        if (flash_erase(0) != FLASH_OK || write_header(0, 1u) != FLASH_OK) {
            return KV_EIO;
        }
        active = 0;
        generation = 1;
        wpos = HDR_SIZE;
        mounted = 1;
        return KV_OK;
    }

    if (v0 && (!v1 || (int32_t)(g0 - g1) > 0)) {
        active = 0;
        generation = g0;
    } else {
        active = 1;
        generation = g1;
    }

    r = scan_active();
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
    const struct kv_entry *e;

    if (key < KV_KEY_MIN || key > KV_KEY_MAX || (buf == NULL && cap != 0)) {
        return KV_EINVAL;
    }
    if (!mounted) {
        return KV_EIO;
    }
    e = find_entry(key);
    if (e == NULL) {
        return KV_ENOENT;
    }
    if (e->len > cap) {
        return KV_ESMALL;
    }
    if (e->len > 0 &&
        flash_read(sector_base(active) + e->off, buf, e->len) != FLASH_OK) {
        return KV_EIO;
    }
    return e->len;
}

int kv_set(uint8_t key, const void *val, size_t len)
{
    struct kv_entry *e;
    uint32_t need = REC_OVERHEAD + (uint32_t)len;

    if (key < KV_KEY_MIN || key > KV_KEY_MAX || len > KV_VALUE_MAX ||
        (val == NULL && len != 0)) {
        return KV_EINVAL;
    }
    if (!mounted) {
        return KV_EIO;
    }

    e = find_entry(key);
    if (e == NULL) {
        e = free_entry();
        if (e == NULL) {
            return KV_ENOSPC;
        }
    }

    if (wpos + need > FLASH_SECTOR_SIZE) {
        if (compact() != KV_OK) {
            mounted = 0;
            return KV_EIO;
        }
        if (wpos + need > FLASH_SECTOR_SIZE) {
            return KV_ENOSPC;    /* cannot happen with at most 16 keys */
        }
    }

    if (write_record(active, wpos, key, val, len) != FLASH_OK) {
        mounted = 0;
        return KV_EIO;
    }
    e->key = key;
    e->len = (uint8_t)len;
    e->off = (uint16_t)(wpos + 3u);
    wpos += need;
    return KV_OK;
}
