/* defect: the end of the image (load + size) is computed in 32 bits before the
 * comparison, so images running past 4 GiB wrap around and are not rejected.
 * breaks: "The load address is not a multiple of 4, or the image would not fit below 4 GiB (load address + image size greater than 2^32): `bad load address <a>`."
 * must_fail: scenario_load_wraps_4gib
 */
/* imgcheck: pre-flight validator for downloaded firmware images. */
#define _FILE_OFFSET_BITS 64

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define FIXED_HDR_SIZE   40u
#define BOARD_ID_OFFSET  24u
#define BOARD_ID_LEN     16u
#define ADDR_SPACE_END   0x100000000ULL

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc_update(uint32_t crc, const unsigned char *p, size_t n)
{
    while (n--)
        crc = crc_table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
    return crc;
}

static uint16_t le16(const unsigned char *p)
{
    return (uint16_t)(p[0] | ((uint16_t)p[1] << 8));
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) |
           ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static int reject(FILE *f, const char *fmt, unsigned long long v)
{
    fputs("imgcheck: ", stderr);
    fprintf(stderr, fmt, v);
    fputc('\n', stderr);
    fclose(f);
    return 1;
}

static int cannot_read(FILE *f, const char *name)
{
    fprintf(stderr, "imgcheck: cannot read %s\n", name);
    if (f)
        fclose(f);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: imgcheck FILE\n", stderr);
        return 2;
    }
    const char *name = argv[1];

    FILE *f = fopen(name, "rb");
    if (!f)
        return cannot_read(NULL, name);

    struct stat st;
    if (fstat(fileno(f), &st) != 0)
        return cannot_read(f, name);

    unsigned char hdr[FIXED_HDR_SIZE];
    size_t got = fread(hdr, 1, sizeof hdr, f);
    if (ferror(f))
        return cannot_read(f, name);

    uint64_t file_size = (uint64_t)st.st_size;

    /* 1 */
    if (got < FIXED_HDR_SIZE)
        return reject(f, "truncated header", 0);
    /* 2 */
    if (memcmp(hdr, "FIMG", 4) != 0)
        return reject(f, "bad magic", 0);
    /* 3 */
    uint16_t hver = le16(hdr + 4);
    if (hver != 1)
        return reject(f, "unsupported header version %llu", hver);
    /* 4 */
    uint16_t hsize = le16(hdr + 6);
    if (hsize < FIXED_HDR_SIZE || (hsize % 4) != 0 || hsize > file_size)
        return reject(f, "bad header size %llu", hsize);
    /* 5 */
    uint32_t isize = le32(hdr + 8);
    if (isize == 0 || (uint64_t)hsize + isize != file_size)
        return reject(f, "bad image size %llu", isize);
    /* 6 */
    uint32_t load = le32(hdr + 12);
    if ((load % 4) != 0 || (uint64_t)(load + isize) > ADDR_SPACE_END)
        return reject(f, "bad load address 0x%08llx", load);
    /* 7 */
    uint32_t entry = le32(hdr + 16);
    if (entry < load || (uint64_t)entry >= (uint64_t)load + isize)
        return reject(f, "bad entry point 0x%08llx", entry);
    /* 8 */
    const unsigned char *id = hdr + BOARD_ID_OFFSET;
    size_t idlen = 0;
    while (idlen < BOARD_ID_LEN && id[idlen] >= 0x21 && id[idlen] <= 0x7E)
        idlen++;
    int id_ok = idlen >= 1 && idlen <= BOARD_ID_LEN - 1;
    for (size_t i = idlen; id_ok && i < BOARD_ID_LEN; i++)
        if (id[i] != 0)
            id_ok = 0;
    if (!id_ok)
        return reject(f, "bad board id", 0);
    /* 9 */
    uint32_t want_crc = le32(hdr + 20);
    if (fseeko(f, (off_t)hsize, SEEK_SET) != 0)
        return cannot_read(f, name);
    crc_init();
    uint32_t crc = 0xFFFFFFFFu;
    uint64_t left = isize;
    unsigned char buf[65536];
    while (left > 0) {
        size_t want = left < sizeof buf ? (size_t)left : sizeof buf;
        size_t n = fread(buf, 1, want, f);
        if (n == 0)
            return cannot_read(f, name);
        crc = crc_update(crc, buf, n);
        left -= n;
    }
    crc ^= 0xFFFFFFFFu;
    if (crc != want_crc)
        return reject(f, "bad crc 0x%08llx", crc);
    fclose(f);

    char board[BOARD_ID_LEN];
    memcpy(board, id, idlen);
    board[idlen] = '\0';
    printf("board %s\nload 0x%08lx\nentry 0x%08lx\nsize %lu\ncrc 0x%08lx\nOK\n",
           board, (unsigned long)load, (unsigned long)entry,
           (unsigned long)isize, (unsigned long)crc);
    return 0;
}
