/* defect: The payload length field is decoded little-endian (sys_get_le16) although the protocol defines it big-endian, so valid frames are rejected and lengths are misread.
 * breaks: "payload length in bytes, big-endian"
 * must_fail: length_field_big_endian
 */
/*
 * UDP telemetry receiver with a hardened frame decoder.
 *
 * Frame layout: [0] magic 0xA5, [1] type, [2..3] payload length (BE), [4..] payload.
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/net/socket.h>

#define FRAME_MAGIC       0xA5
#define FRAME_HDR_LEN     4
#define FRAME_MAX_PAYLOAD 48
#define FRAME_MAX_LEN     (FRAME_HDR_LEN + FRAME_MAX_PAYLOAD)

#define RX_ADDR "127.0.0.1"
#define RX_PORT 7400

/* Larger than the largest valid frame so that oversized datagrams are seen. */
#define RX_BUF_LEN 128

struct frame {
	uint8_t type;
	uint16_t len;
	uint8_t payload[FRAME_MAX_PAYLOAD];
};

int frame_parse(const uint8_t *data, size_t size, struct frame *out)
{
	uint16_t len;

	if (data == NULL || out == NULL) {
		return -EINVAL;
	}

	/* The header must be complete before any field is read. */
	if (size < FRAME_HDR_LEN) {
		return -EBADMSG;
	}

	if (data[0] != FRAME_MAGIC) {
		return -EPROTO;
	}

	len = sys_get_le16(&data[2]);

	/* Declared length must fit the destination ... */
	if (len > sizeof(out->payload)) {
		return -EMSGSIZE;
	}

	/* ... and must match what actually arrived. */
	if ((size_t)len != size - FRAME_HDR_LEN) {
		return -EBADMSG;
	}

	out->type = data[1];
	out->len = len;
	memcpy(out->payload, &data[FRAME_HDR_LEN], len);

	return 0;
}

int main(void)
{
	static uint8_t rx_buf[RX_BUF_LEN];
	static const uint8_t good[] = {
		FRAME_MAGIC, 0x01, 0x00, 0x05, 'h', 'e', 'l', 'l', 'o',
	};
	/* Claims 32 payload bytes but carries only 4. */
	static const uint8_t liar[] = {
		FRAME_MAGIC, 0x02, 0x00, 0x20, 0xde, 0xad, 0xbe, 0xef,
	};
	static const uint8_t stub[] = { FRAME_MAGIC, 0x03 };
	static const struct {
		const uint8_t *buf;
		size_t len;
	} tests[] = {
		{ good, sizeof(good) },
		{ liar, sizeof(liar) },
		{ stub, sizeof(stub) },
	};
	struct zsock_timeval tv = { .tv_sec = 2, .tv_usec = 0 };
	struct sockaddr_in addr;
	int rx = -1;
	int tx = -1;
	int ret = 0;

	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_port = htons(RX_PORT);
	if (zsock_inet_pton(AF_INET, RX_ADDR, &addr.sin_addr) != 1) {
		printk("inet_pton failed: %d\n", -EINVAL);
		return -EINVAL;
	}

	rx = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (rx < 0) {
		ret = -errno;
		printk("rx socket failed: %d\n", ret);
		return ret;
	}

	if (zsock_bind(rx, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		ret = -errno;
		printk("bind failed: %d\n", ret);
		goto out;
	}

	/* Do not hang forever if a datagram gets lost. */
	if (zsock_setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
		ret = -errno;
		printk("setsockopt failed: %d\n", ret);
		goto out;
	}

	tx = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (tx < 0) {
		ret = -errno;
		printk("tx socket failed: %d\n", ret);
		goto out;
	}

	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		ssize_t n = zsock_sendto(tx, tests[i].buf, tests[i].len, 0,
					 (struct sockaddr *)&addr, sizeof(addr));

		if (n < 0) {
			ret = -errno;
			printk("sendto failed: %d\n", ret);
			goto out;
		}
	}

	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		struct frame frame;
		ssize_t n;
		int err;

		n = zsock_recvfrom(rx, rx_buf, sizeof(rx_buf), 0, NULL, NULL);
		if (n < 0) {
			ret = -errno;
			printk("recvfrom failed: %d\n", ret);
			goto out;
		}

		err = frame_parse(rx_buf, (size_t)n, &frame);
		if (err == 0) {
			printk("frame ok type=%u len=%u\n", frame.type, frame.len);
		} else {
			printk("frame rejected: %d\n", err);
		}
	}

out:
	if (tx >= 0) {
		(void)zsock_close(tx);
	}
	(void)zsock_close(rx);
	return ret;
}
