/* defect: compaction commits the new sector's header before copying the records into it, so a power failure during the copy makes a half-filled sector active and loses keys.
 * breaks: "After the reboot, every key returns the value of its last `kv_set` that returned `KV_OK`, except the key whose `kv_set` was interrupted, which returns either that previous value (or `KV_ENOENT` if it had none) or the complete new value."
 * must_fail: scenario_sweep_cuts_through_compaction_4_keys, scenario_sweep_cuts_through_compaction_10_keys, scenario_sweep_cuts_through_compaction_16_keys
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kvlog.h"

/*
 * Each sector starts with a 4-byte header and then holds fixed-size slots:
 *
 *   header: [seq] [~seq] [0x5A] [0xC3]        (0xC3 is programmed last)
 *   slot:   [key] [len] [32 value bytes] [0x96]  (0x96 is programmed last)
 *
 * Slots are written in order; a slot whose first byte is still 0xFF has
 * never been touched. A slot is valid only when its last byte is the
 * commit mark. A torn slot is simply skipped, because every slot has the
 * same size. The active sector is the one with a committed header and the
 * newer 8-bit sequence number (serial-number comparison).
 *
 * The store keeps a RAM copy of every key's latest value, so a compaction
 * can be written from RAM, together with the value being set.
 */

enum {
    SEC_SIZE     = FLASH_SECTOR_SIZE,
    HDR_LEN      = 4,
    HDR_MARK     = 0x5A,
    HDR_DONE     = 0xC3,
    SLOT_LEN     = 2 + KV_VALUE_MAX + 1,                 /* 35 */
    SLOT_DONE    = 0x96,
    SLOTS        = (SEC_SIZE - HDR_LEN) / SLOT_LEN,      /* 29 */
    KEY_CAPACITY = 16
};

typedef struct {
    uint8_t key;             /* 0 = free */
    uint8_t len;
    uint8_t data[KV_VALUE_MAX];
} cache_t;

static cache_t  cache[KEY_CAPACITY];
static unsigned cur_sector;
static uint8_t  cur_seq;
static unsigned next_slot;    /* first untouched slot in cur_sector */
static int      ready;

static uint32_t slot_addr(unsigned sector, unsigned slot)
{
    return sector * SEC_SIZE + HDR_LEN + slot * SLOT_LEN;
}

static int lookup(uint8_t key)
{
    int i;

    for (i = 0; i < KEY_CAPACITY; i++) {
        if (cache[i].key == key) {
            return i;
        }
    }
    return -1;
}

static int program_slot(unsigned sector, unsigned slot, uint8_t key,
                        const uint8_t *data, uint8_t len)
{
    uint8_t img[SLOT_LEN];

    memset(img, 0xFF, sizeof img);
    img[0] = key;
    img[1] = len;
    if (len) {
        memcpy(&img[2], data, len);
    }
    img[SLOT_LEN - 1] = SLOT_DONE;
    return flash_program(slot_addr(sector, slot), img, sizeof img);
}

/*
 * Rewrites every cached key into the other sector; slot 'which' of the
 * cache carries (key, data, len) instead of its cached value, or when it is
 * -1 no value is replaced. The new sector is marked with the next
 * sequence number first, then filled.
 */
static int relocate(int which, uint8_t key, const uint8_t *data, uint8_t len)
{
    unsigned dst = cur_sector ^ 1u;
    uint8_t seq = (uint8_t)(cur_seq + 1u);
    uint8_t hdr[HDR_LEN];
    unsigned n = 0;
    int i;

    if (flash_erase(dst) != FLASH_OK) {
        return -1;
    }
    hdr[0] = seq;
    hdr[1] = (uint8_t)~seq;
    hdr[2] = HDR_MARK;
    hdr[3] = HDR_DONE;
    if (flash_program(dst * SEC_SIZE, hdr, sizeof hdr) != FLASH_OK) {
        return -1;
    }
    for (i = 0; i < KEY_CAPACITY; i++) {
        int rc;

        if (i == which) {
            rc = program_slot(dst, n, key, data, len);
        } else if (cache[i].key != 0) {
            rc = program_slot(dst, n, cache[i].key, cache[i].data, cache[i].len);
        } else {
            continue;
        }
        if (rc != FLASH_OK) {
            return -1;
        }
        n++;
    }
    cur_sector = dst;
    cur_seq = seq;
    next_slot = n;
    return 0;
}

static int header_ok(unsigned sector, uint8_t *seq)
{
    uint8_t hdr[HDR_LEN];

    if (flash_read(sector * SEC_SIZE, hdr, sizeof hdr) != FLASH_OK) {
        return 0;
    }
    if ((uint8_t)(hdr[0] ^ hdr[1]) != 0xFFu || hdr[2] != HDR_MARK ||
        hdr[3] != HDR_DONE) {
        return 0;
    }
    *seq = hdr[0];
    return 1;
}

int kv_mount(void)
{
    uint8_t s0 = 0, s1 = 0;
    int ok0, ok1;
    unsigned slot;

    ready = 0;
    memset(cache, 0, sizeof cache);

    ok0 = header_ok(0, &s0);
    ok1 = header_ok(1, &s1);

    if (!ok0 && !ok1) {
        /* Empty device: format sector 0 as an empty store. */
        uint8_t hdr[HDR_LEN] = { 0x00, 0xFF, HDR_MARK, HDR_DONE };

        if (flash_erase(0) != FLASH_OK ||
            flash_program(0, hdr, sizeof hdr) != FLASH_OK) {
            return KV_EIO;
        }
        cur_sector = 0;
        cur_seq = 0;
        next_slot = 0;
        ready = 1;
        return KV_OK;
    }

    if (ok0 && ok1) {
        /* Both committed: an old sector not yet reused. Newer one wins. */
        int8_t d = (int8_t)(uint8_t)(s1 - s0);
        cur_sector = (d > 0) ? 1u : 0u;
    } else {
        cur_sector = ok0 ? 0u : 1u;
    }
    cur_seq = (cur_sector == 0u) ? s0 : s1;

    next_slot = 0;
    for (slot = 0; slot < SLOTS; slot++) {
        uint8_t img[SLOT_LEN];
        int idx;

        if (flash_read(slot_addr(cur_sector, slot), img, sizeof img) != FLASH_OK) {
            return KV_EIO;
        }
        if (img[0] == 0xFF) {
            break;                 /* never written: nothing follows */
        }
        next_slot = slot + 1u;     /* used, even if torn */

        if (img[SLOT_LEN - 1] != SLOT_DONE || img[0] == 0x00 ||
            img[1] > KV_VALUE_MAX) {
            continue;              /* torn: ignore */
        }
        idx = lookup(img[0]);
        if (idx < 0) {
            idx = lookup(0);
            if (idx < 0) {
                continue;
            }
        }
        cache[idx].key = img[0];
        cache[idx].len = img[1];
        memcpy(cache[idx].data, &img[2], KV_VALUE_MAX);
    }
    ready = 1;
    return KV_OK;
}

int kv_get(uint8_t key, void *buf, size_t cap)
{
    int idx;

    if (key == 0 || key == 0xFF) {
        return KV_EINVAL;
    }
    if (buf == NULL && cap > 0) {
        return KV_EINVAL;
    }
    idx = ready ? lookup(key) : -1;
    if (idx < 0) {
        return KV_ENOENT;
    }
    if ((size_t)cache[idx].len > cap) {
        return KV_ESMALL;
    }
    if (cache[idx].len > 0) {
        memcpy(buf, cache[idx].data, cache[idx].len);
    }
    return cache[idx].len;
}

int kv_set(uint8_t key, const void *val, size_t len)
{
    int idx;

    if (key == 0 || key == 0xFF || len > KV_VALUE_MAX ||
        (val == NULL && len > 0)) {
        return KV_EINVAL;
    }
    if (!ready) {
        return KV_EIO;
    }

    idx = lookup(key);
    if (idx < 0) {
        idx = lookup(0);
        if (idx < 0) {
            return KV_ENOSPC;
        }
    }

    if (next_slot < SLOTS) {
        if (program_slot(cur_sector, next_slot, key, val, (uint8_t)len) != FLASH_OK) {
            ready = 0;
            return KV_EIO;
        }
        next_slot++;
    } else if (relocate(idx, key, val, (uint8_t)len) != 0) {
        ready = 0;
        return KV_EIO;
    }

    cache[idx].key = key;
    cache[idx].len = (uint8_t)len;
    if (len) {
        memcpy(cache[idx].data, val, len);
    }
    return KV_OK;
}
