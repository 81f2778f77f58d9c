/*
 * imgcheck - validate a firmware image before it is handed to the flasher.
 *
 * The file is read exactly once, front to back: the fixed 40-byte header is
 * captured, the total length is counted, and the CRC-32 is accumulated over
 * every byte from the header size onwards.  The ordered rules are evaluated
 * afterwards; when they all pass, the image data is exactly the bytes from
 * the header size to the end of the file, so the running CRC is the CRC of
 * the image data.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct image_header {
    uint8_t  magic[4];
    uint16_t hdr_version;
    uint16_t hdr_size;
    uint32_t img_size;
    uint32_t load_addr;
    uint32_t entry;
    uint32_t crc;
    uint8_t  board[16];
};

static uint32_t get_le(const uint8_t *p, int nbytes)
{
    uint32_t v = 0;
    for (int i = nbytes - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void decode_header(const uint8_t raw[40], struct image_header *h)
{
    memcpy(h->magic, raw, 4);
    h->hdr_version = (uint16_t)get_le(raw + 4, 2);
    h->hdr_size    = (uint16_t)get_le(raw + 6, 2);
    h->img_size    = get_le(raw + 8, 4);
    h->load_addr   = get_le(raw + 12, 4);
    h->entry       = get_le(raw + 16, 4);
    h->crc         = get_le(raw + 20, 4);
    memcpy(h->board, raw + 24, 16);
}

/* bitwise reflected CRC-32, no table */
static uint32_t crc32_feed(uint32_t crc, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc;
}

/* 0 if valid, otherwise -1; *len receives the id length */
static int check_board_id(const uint8_t id[16], size_t *len)
{
    size_t n = 0;
    while (n < 16 && id[n] != 0) {
        if (id[n] < '!' || id[n] > '~')
            return -1;
        n++;
    }
    if (n == 0 || n == 16)
        return -1;
    for (size_t i = n; i < 16; i++)
        if (id[i] != 0)
            return -1;
    *len = n;
    return 0;
}

static int fail(const char *msg)
{
    fprintf(stderr, "imgcheck: %s\n", msg);
    return 1;
}

int main(int argc, char *argv[])
{
    char msg[64];

    if (argc != 2) {
        fprintf(stderr, "usage: imgcheck FILE\n");
        return 2;
    }

    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "imgcheck: cannot read %s\n", argv[1]);
        return 2;
    }

    uint8_t raw[40];
    uint8_t buf[32768];
    uint64_t total = 0;      /* bytes in the file */
    uint32_t crc = 0xFFFFFFFFu;
    int have_hsize = 0;
    uint64_t hsize = 0;

    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "imgcheck: cannot read %s\n", argv[1]);
            close(fd);
            return 2;
        }
        if (n == 0)
            break;
        uint64_t start = total;
        uint64_t end = total + (uint64_t)n;
        /* capture the fixed header */
        if (start < sizeof raw) {
            size_t k = (size_t)((end < sizeof raw ? end : sizeof raw) - start);
            memcpy(raw + start, buf, k);
            if (start + k == sizeof raw) {
                have_hsize = 1;
                hsize = get_le(raw + 6, 2);
            }
        }
        /* accumulate CRC over the bytes from the header size on */
        if (have_hsize && hsize >= sizeof raw && end > hsize) {
            uint64_t from = hsize > start ? hsize : start;
            crc = crc32_feed(crc, buf + (from - start), (size_t)(end - from));
        }
        total = end;
    }
    close(fd);
    crc = ~crc;

    if (total < 40)
        return fail("truncated header");

    struct image_header h;
    decode_header(raw, &h);

    if (memcmp(h.magic, "FIMG", 4) != 0)
        return fail("bad magic");

    if (h.hdr_version != 1) {
        snprintf(msg, sizeof msg, "unsupported header version %u",
                 (unsigned)h.hdr_version);
        return fail(msg);
    }

    if (h.hdr_size < 40 || h.hdr_size % 4 != 0 || h.hdr_size > total) {
        snprintf(msg, sizeof msg, "bad header size %u", (unsigned)h.hdr_size);
        return fail(msg);
    }

    if (h.img_size == 0 || total - h.hdr_size != h.img_size) {
        snprintf(msg, sizeof msg, "bad image size %" PRIu32, h.img_size);
        return fail(msg);
    }

    /* image must end at or below 4 GiB: room left above load >= size */
    if (h.load_addr % 4 != 0 || h.img_size - 1 > UINT32_MAX - h.load_addr) {
        snprintf(msg, sizeof msg, "bad load address 0x%08" PRIx32, h.load_addr);
        return fail(msg);
    }

    /* here load + size - 1 cannot overflow 32 bits */
    if (h.entry < h.load_addr || h.entry - h.load_addr >= h.img_size) {
        snprintf(msg, sizeof msg, "bad entry point 0x%08" PRIx32, h.entry);
        return fail(msg);
    }

    size_t id_len;
    if (check_board_id(h.board, &id_len) != 0)
        return fail("bad board id");

    if (crc != h.crc) {
        snprintf(msg, sizeof msg, "bad crc 0x%08" PRIx32, crc);
        return fail(msg);
    }

    printf("board %.*s\n", (int)id_len, (const char *)h.board);
    printf("load 0x%08" PRIx32 "\n", h.load_addr);
    printf("entry 0x%08" PRIx32 "\n", h.entry);
    printf("size %" PRIu32 "\n", h.img_size);
    printf("crc 0x%08" PRIx32 "\n", crc);
    printf("OK\n");
    return 0;
}
