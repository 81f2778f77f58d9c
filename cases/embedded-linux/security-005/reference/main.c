/* provparse: bounds-safe decoder of the smart-lock provisioning blob. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOB    4096u
#define TAG_DEVID   0x01
#define TAG_SERIAL  0x02
#define TAG_HWREV   0x03
#define TAG_WIFI    0x10
#define TAG_SSID    0x11
#define TAG_PSK     0x12
#define TAG_CERT    0x20

struct blob {
	const uint8_t *devid;  size_t devid_len;
	uint32_t serial;
	int has_hwrev;         uint8_t hwrev;
	int has_wifi;
	const uint8_t *ssid;   size_t ssid_len;
	size_t psk_len;
	const uint8_t *cert;   size_t cert_len;
};

static int fail(size_t off, const char *reason, int tag)
{
	fprintf(stderr, "provparse: error at offset %zu: %s", off, reason);
	if (tag >= 0)
		fprintf(stderr, " 0x%02x", tag);
	fputc('\n', stderr);
	return -1;
}

static int printable(const uint8_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] < 0x20 || v[i] > 0x7E)
			return 0;
	return 1;
}

static int value_ok(int tag, const uint8_t *v, size_t n)
{
	switch (tag) {
	case TAG_DEVID:  return n >= 1 && n <= 32 && printable(v, n);
	case TAG_SERIAL: return n == 4;
	case TAG_HWREV:  return n == 1;
	case TAG_SSID:   return n >= 1 && n <= 32;
	case TAG_PSK:    return n >= 8 && n <= 63 && printable(v, n);
	case TAG_CERT:   return n >= 1 && n <= 2048;
	default:         return 1;
	}
}

/*
 * Decodes the elements of buf[start, end); `inner` is set inside the
 * Wi-Fi container. Offsets are file offsets: buf is the whole file.
 */
static int parse_level(const uint8_t *buf, size_t start, size_t end, int inner, struct blob *b)
{
	static const int top_tags[] = { TAG_DEVID, TAG_SERIAL, TAG_HWREV, TAG_WIFI, TAG_CERT };
	static const int wifi_tags[] = { TAG_SSID, TAG_PSK };
	const int *allowed = inner ? wifi_tags : top_tags;
	size_t nallowed = inner ? 2 : 5;
	int seen[256] = { 0 };
	size_t pos = start;

	while (pos < end) {
		size_t off = pos;
		int tag = buf[pos];
		size_t len, hdr;

		if (end - pos < 2)
			return fail(off, "truncated header", -1);
		uint8_t l0 = buf[pos + 1];
		if (l0 == 0x82) {
			if (end - pos < 4)
				return fail(off, "truncated header", -1);
			len = (size_t)buf[pos + 2] << 8 | buf[pos + 3];
			hdr = 4;
			if (len < 128)
				return fail(off, "bad length encoding", -1);
		} else if (l0 >= 0x80) {
			return fail(off, "bad length encoding", -1);
		} else {
			len = l0;
			hdr = 2;
		}
		if (len > end - pos - hdr)
			return fail(off, "length exceeds container", -1);
		const uint8_t *v = buf + pos + hdr;
		pos += hdr + len;

		if (tag >= 0xE0)
			continue;                      /* vendor data */
		if (inner && tag == TAG_WIFI)
			return fail(off, "nesting too deep", -1);
		int known = 0;
		for (size_t i = 0; i < nallowed; i++)
			known |= allowed[i] == tag;
		if (!known)
			return fail(off, "unknown tag", tag);
		if (seen[tag])
			return fail(off, "duplicate tag", tag);
		seen[tag] = 1;
		if (tag == TAG_WIFI) {
			b->has_wifi = 1;
			if (parse_level(buf, (size_t)(v - buf), (size_t)(v - buf) + len, 1, b) < 0)
				return -1;
			continue;
		}
		if (!value_ok(tag, v, len))
			return fail(off, "bad value for tag", tag);
		switch (tag) {
		case TAG_DEVID:  b->devid = v; b->devid_len = len; break;
		case TAG_SERIAL: b->serial = (uint32_t)v[0] << 24 | (uint32_t)v[1] << 16 | (uint32_t)v[2] << 8 | v[3]; break;
		case TAG_HWREV:  b->has_hwrev = 1; b->hwrev = v[0]; break;
		case TAG_SSID:   b->ssid = v; b->ssid_len = len; break;
		case TAG_PSK:    b->psk_len = len; break;
		case TAG_CERT:   b->cert = v; b->cert_len = len; break;
		}
	}
	if (inner) {
		if (!seen[TAG_SSID])
			return fail(end, "missing tag", TAG_SSID);
		if (!seen[TAG_PSK])
			return fail(end, "missing tag", TAG_PSK);
	} else {
		if (!seen[TAG_DEVID])
			return fail(end, "missing tag", TAG_DEVID);
		if (!seen[TAG_SERIAL])
			return fail(end, "missing tag", TAG_SERIAL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct blob b;
	uint8_t *buf;
	size_t n;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: provparse FILE\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (f == NULL) {
		fprintf(stderr, "provparse: cannot read %s\n", argv[1]);
		return 2;
	}
	/* Read at most one byte more than allowed: enough to tell "too large". */
	buf = malloc(MAX_BLOB + 1);
	if (buf == NULL) {
		fclose(f);
		fprintf(stderr, "provparse: cannot read %s\n", argv[1]);
		return 2;
	}
	n = fread(buf, 1, MAX_BLOB + 1, f);
	rc = ferror(f);
	fclose(f);
	if (rc) {
		free(buf);
		fprintf(stderr, "provparse: cannot read %s\n", argv[1]);
		return 2;
	}
	if (n > MAX_BLOB) {
		free(buf);
		fprintf(stderr, "provparse: blob too large\n");
		return 1;
	}
	/* Keep exactly n bytes so that any read past the blob is caught. */
	uint8_t *blob = malloc(n ? n : 1);
	if (blob == NULL) {
		free(buf);
		return 2;
	}
	memcpy(blob, buf, n);
	free(buf);

	memset(&b, 0, sizeof(b));
	if (parse_level(blob, 0, n, 0, &b) < 0) {
		free(blob);
		return 1;
	}
	printf("device_id=%.*s\n", (int)b.devid_len, (const char *)b.devid);
	printf("serial=%u\n", (unsigned)b.serial);
	if (b.has_hwrev)
		printf("hw_rev=%u\n", (unsigned)b.hwrev);
	if (b.has_wifi) {
		printf("wifi.ssid=");
		for (size_t i = 0; i < b.ssid_len; i++)
			printf("%02x", b.ssid[i]);
		printf("\nwifi.passphrase=%zu bytes\n", b.psk_len);
	}
	if (b.cert_len)
		printf("cert=%zu bytes %02x..%02x\n", b.cert_len, b.cert[0], b.cert[b.cert_len - 1]);
	free(blob);
	return 0;
}
