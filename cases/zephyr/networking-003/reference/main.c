#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/net/socket.h>
#include <zephyr/sys/byteorder.h>

#define FRAME_PORT        7400
#define FRAME_MAGIC       0xA5
#define FRAME_HDR_SIZE    4
#define FRAME_MAX_PAYLOAD 48

struct frame {
	uint8_t type;
	uint16_t len;
	uint8_t payload[FRAME_MAX_PAYLOAD];
};

static int frame_parse(const uint8_t *data, size_t size, struct frame *out)
{
	uint16_t plen;

	if (size < FRAME_HDR_SIZE) {
		return -EMSGSIZE;
	}
	if (data[0] != FRAME_MAGIC) {
		return -EBADMSG;
	}
	plen = sys_get_be16(&data[2]);
	if (plen > size - FRAME_HDR_SIZE) {
		return -EMSGSIZE;
	}
	if (plen > sizeof(out->payload)) {
		return -E2BIG;
	}
	out->type = data[1];
	out->len = plen;
	memcpy(out->payload, &data[FRAME_HDR_SIZE], plen);
	return 0;
}

static int send_frames(int fd, const struct sockaddr_in *dst)
{
	static const uint8_t good[] = { FRAME_MAGIC, 0x01, 0x00, 0x03, 'a', 'b', 'c' };
	static const uint8_t liar[] = { FRAME_MAGIC, 0x02, 0x01, 0x00, 'x', 'y' };
	static const uint8_t runt[] = { FRAME_MAGIC, 0x03 };
	const struct {
		const uint8_t *buf;
		size_t len;
	} msgs[] = {
		{ good, sizeof(good) }, { liar, sizeof(liar) }, { runt, sizeof(runt) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(msgs); i++) {
		if (zsock_sendto(fd, msgs[i].buf, msgs[i].len, 0, (const struct sockaddr *)dst,
				 sizeof(*dst)) < 0) {
			return -errno;
		}
	}
	return ARRAY_SIZE(msgs);
}

int main(void)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(FRAME_PORT),
	};
	struct timeval timeout = { .tv_sec = 2 };
	uint8_t rx[FRAME_HDR_SIZE + FRAME_MAX_PAYLOAD];
	struct frame frame;
	int rx_fd;
	int tx_fd;
	int count;
	int ret;

	if (zsock_inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr) != 1) {
		return -EINVAL;
	}

	rx_fd = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (rx_fd < 0) {
		ret = -errno;
		printk("socket: %d\n", ret);
		return ret;
	}
	if (zsock_bind(rx_fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    zsock_setsockopt(rx_fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) < 0) {
		ret = -errno;
		printk("bind/setsockopt: %d\n", ret);
		goto close_rx;
	}

	tx_fd = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (tx_fd < 0) {
		ret = -errno;
		printk("sender socket: %d\n", ret);
		goto close_rx;
	}

	count = send_frames(tx_fd, &addr);
	if (count < 0) {
		ret = count;
		printk("send: %d\n", ret);
		goto close_tx;
	}

	ret = 0;
	for (int i = 0; i < count; i++) {
		struct sockaddr_in from;
		socklen_t from_len = sizeof(from);
		ssize_t n = zsock_recvfrom(rx_fd, rx, sizeof(rx), 0, (struct sockaddr *)&from,
					   &from_len);
		int err;

		if (n < 0) {
			ret = -errno;
			printk("recvfrom: %d\n", ret);
			goto close_tx;
		}
		err = frame_parse(rx, (size_t)n, &frame);
		if (err < 0) {
			printk("frame rejected: %d\n", err);
		} else {
			printk("frame ok type=%u len=%u\n", frame.type, frame.len);
		}
	}

close_tx:
	(void)zsock_close(tx_fd);
close_rx:
	(void)zsock_close(rx_fd);
	return ret;
}
