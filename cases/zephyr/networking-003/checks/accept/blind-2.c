#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>
#include <zephyr/net/socket.h>

#define FRAME_MAGIC     0xA5u
#define FRAME_HDR_SIZE  4u
#define FRAME_PAYLOAD_MAX 48u

#define LISTEN_ADDR "127.0.0.1"
#define LISTEN_PORT 7400

struct frame {
	uint8_t type;
	size_t len;
	uint8_t payload[FRAME_PAYLOAD_MAX];
};

/*
 * The receive buffer holds one byte more than the largest valid frame:
 * a datagram that fills it completely is oversized (the stack truncates
 * anything longer to the buffer size).
 */
static uint8_t rx_buf[FRAME_HDR_SIZE + FRAME_PAYLOAD_MAX + 1];

int frame_parse(const uint8_t *data, size_t size, struct frame *out)
{
	size_t declared;
	size_t available;

	if (data == NULL || out == NULL) {
		return -EINVAL;
	}
	if (size < FRAME_HDR_SIZE) {
		return -ENODATA;
	}
	if (size > FRAME_HDR_SIZE + FRAME_PAYLOAD_MAX) {
		return -EMSGSIZE;
	}
	if (data[0] != FRAME_MAGIC) {
		return -EINVAL;
	}

	declared = ((size_t)data[2] << 8) | (size_t)data[3];
	available = size - FRAME_HDR_SIZE;

	if (declared > FRAME_PAYLOAD_MAX) {
		return -EMSGSIZE;
	}
	if (declared != available) {
		return -EBADMSG;
	}

	memset(out, 0, sizeof(*out));
	out->type = data[1];
	out->len = declared;
	memcpy(out->payload, data + FRAME_HDR_SIZE, declared);
	return 0;
}

static void close_all(int *fds, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		if (fds[i] >= 0) {
			(void)zsock_close(fds[i]);
			fds[i] = -1;
		}
	}
}

static int open_receiver(const struct sockaddr_in *addr)
{
	struct zsock_timeval tv = { .tv_sec = 2 };
	int fd;
	int err;

	fd = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (fd < 0) {
		err = -errno;
		printk("socket(rx) failed: %d\n", err);
		return err;
	}

	if (zsock_bind(fd, (const struct sockaddr *)addr, sizeof(*addr)) < 0) {
		err = -errno;
		printk("bind failed: %d\n", err);
		(void)zsock_close(fd);
		return err;
	}

	if (zsock_setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
		err = -errno;
		printk("setsockopt(SO_RCVTIMEO) failed: %d\n", err);
		(void)zsock_close(fd);
		return err;
	}

	return fd;
}

static int send_demo_frames(int fd, const struct sockaddr_in *dst)
{
	static const uint8_t valid[] = { 0xA5, 0x07, 0x00, 0x03, 0x10, 0x20, 0x30 };
	static const uint8_t lying[] = { 0xA5, 0x07, 0x00, 0x30, 0x10, 0x20 };
	static const uint8_t tiny[] = { 0xA5, 0x07 };
	const struct {
		const void *p;
		size_t n;
	} dgrams[] = {
		{ valid, sizeof(valid) },
		{ lying, sizeof(lying) },
		{ tiny, sizeof(tiny) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(dgrams); i++) {
		if (zsock_sendto(fd, dgrams[i].p, dgrams[i].n, 0,
				 (const struct sockaddr *)dst, sizeof(*dst)) < 0) {
			int err = -errno;

			printk("sendto failed: %d\n", err);
			return err;
		}
	}

	return (int)ARRAY_SIZE(dgrams);
}

int main(void)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(LISTEN_PORT),
	};
	int fds[2] = { -1, -1 }; /* [0] receiver, [1] sender */
	int expected;
	int rc = 0;

	if (zsock_inet_pton(AF_INET, LISTEN_ADDR, &addr.sin_addr) != 1) {
		printk("inet_pton failed: %d\n", -EINVAL);
		return -EINVAL;
	}

	fds[0] = open_receiver(&addr);
	if (fds[0] < 0) {
		return fds[0];
	}

	fds[1] = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (fds[1] < 0) {
		rc = -errno;
		printk("socket(tx) failed: %d\n", rc);
		close_all(fds, ARRAY_SIZE(fds));
		return rc;
	}

	expected = send_demo_frames(fds[1], &addr);
	if (expected < 0) {
		close_all(fds, ARRAY_SIZE(fds));
		return expected;
	}

	for (int i = 0; i < expected; i++) {
		struct frame f;
		ssize_t got;
		int perr;

		got = zsock_recv(fds[0], rx_buf, sizeof(rx_buf), 0);
		if (got < 0) {
			rc = -errno;
			printk("recv failed: %d\n", rc);
			break;
		}

		perr = frame_parse(rx_buf, (size_t)got, &f);
		if (perr < 0) {
			printk("frame rejected: %d\n", perr);
		} else {
			printk("frame ok type=%u len=%u\n", f.type,
			       (unsigned int)f.len);
		}
	}

	close_all(fds, ARRAY_SIZE(fds));
	return rc;
}
