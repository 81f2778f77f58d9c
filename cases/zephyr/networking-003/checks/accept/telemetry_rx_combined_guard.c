/*
 * Telemetry receiver on 127.0.0.1:7400.
 *
 * Wire format of one datagram:
 *   [0]    sync byte 0xA5
 *   [1]    message type
 *   [2..3] payload length, big-endian
 *   [4..]  payload (at most 48 bytes)
 *
 * Every datagram is untrusted: the decoder validates the size of what was
 * actually received before it looks at any field, and validates the declared
 * length against both the received bytes and the destination array.
 *
 * This variant folds the size and sync tests into one guard (|| evaluates the
 * size test first and stops there on a runt) and bounds the declared length
 * by the bytes left after the header, computed once the header is known to fit.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/net/socket.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define TLM_ADDR        "127.0.0.1"
#define TLM_PORT        7400
#define TLM_SYNC        0xA5
#define TLM_HEADER_LEN  4U
#define TLM_PAYLOAD_CAP 48U
#define TLM_WAIT_MS     2000

struct frame {
	uint8_t type;
	size_t len;
	uint8_t payload[TLM_PAYLOAD_CAP];
};

/* Everything the demo owns; a descriptor of -1 means "not open". */
struct tlm_link {
	int listener;
	int talker;
	struct sockaddr_in local;
	uint8_t rx[TLM_HEADER_LEN + TLM_PAYLOAD_CAP];
};

struct sample {
	const uint8_t *bytes;
	size_t count;
};

/* Well formed: type 0x10, four payload bytes. */
static const uint8_t sample_good[] = { TLM_SYNC, 0x10, 0x00, 0x04, 0xDE, 0xAD, 0xBE, 0xEF };
/* Claims 32 payload bytes but carries three. */
static const uint8_t sample_lying[] = { TLM_SYNC, 0x11, 0x00, 0x20, 0x01, 0x02, 0x03 };
/* Shorter than the header. */
static const uint8_t sample_runt[] = { TLM_SYNC, 0x12 };

static const struct sample samples[] = {
	{ sample_good, sizeof(sample_good) },
	{ sample_lying, sizeof(sample_lying) },
	{ sample_runt, sizeof(sample_runt) },
};

static int decode_frame(const uint8_t *dgram, size_t dgram_len, struct frame *f)
{
	size_t declared;
	size_t avail;

	/* A runt fails the size test and || never reads dgram[0]. */
	if (dgram_len < TLM_HEADER_LEN || dgram[0] != TLM_SYNC) {
		return -EBADMSG;
	}

	declared = ((size_t)dgram[2] << 8) | (size_t)dgram[3];
	if (declared > TLM_PAYLOAD_CAP) {
		return -ENOSPC;
	}
	/* Cannot wrap: the guard above proved dgram_len >= TLM_HEADER_LEN. */
	avail = dgram_len - TLM_HEADER_LEN;
	if (declared > avail) {
		return -EBADMSG;
	}

	f->type = dgram[1];
	f->len = declared;
	memcpy(f->payload, &dgram[TLM_HEADER_LEN], declared);
	return 0;
}

static int fail_errno(const char *step)
{
	int err = -errno;

	printk("%s failed: %d\n", step, err);
	return err;
}

static int link_open(struct tlm_link *link)
{
	link->local.sin_family = AF_INET;
	link->local.sin_port = htons(TLM_PORT);
	if (zsock_inet_pton(AF_INET, TLM_ADDR, &link->local.sin_addr) != 1) {
		printk("inet_pton failed\n");
		return -EINVAL;
	}

	link->listener = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (link->listener < 0) {
		return fail_errno("socket (receiver)");
	}
	if (zsock_bind(link->listener, (const struct sockaddr *)&link->local,
		       sizeof(link->local)) < 0) {
		return fail_errno("bind");
	}

	/* A connected UDP socket: plain zsock_send() goes to our own port. */
	link->talker = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (link->talker < 0) {
		return fail_errno("socket (sender)");
	}
	if (zsock_connect(link->talker, (const struct sockaddr *)&link->local,
			  sizeof(link->local)) < 0) {
		return fail_errno("connect");
	}
	return 0;
}

static void link_close(struct tlm_link *link)
{
	if (link->talker >= 0) {
		(void)zsock_close(link->talker);
		link->talker = -1;
	}
	if (link->listener >= 0) {
		(void)zsock_close(link->listener);
		link->listener = -1;
	}
}

static int transmit_samples(struct tlm_link *link)
{
	for (size_t k = 0; k < ARRAY_SIZE(samples); k++) {
		if (zsock_send(link->talker, samples[k].bytes, samples[k].count, 0) < 0) {
			return fail_errno("send");
		}
	}
	return 0;
}

static int receive_and_decode(struct tlm_link *link, size_t expected)
{
	struct zsock_pollfd waiter = {
		.fd = link->listener,
		.events = ZSOCK_POLLIN,
	};
	struct frame decoded;

	while (expected > 0) {
		int ready = zsock_poll(&waiter, 1, TLM_WAIT_MS);

		if (ready < 0) {
			return fail_errno("poll");
		}
		if (ready == 0) {
			printk("poll failed: %d\n", -ETIMEDOUT);
			return -ETIMEDOUT;
		}

		ssize_t got = zsock_recv(link->listener, link->rx, sizeof(link->rx), 0);

		if (got < 0) {
			return fail_errno("recv");
		}

		int verdict = decode_frame(link->rx, (size_t)got, &decoded);

		if (verdict == 0) {
			printk("frame ok type=%u len=%u\n", (unsigned int)decoded.type,
			       (unsigned int)decoded.len);
		} else {
			printk("frame rejected: %d\n", verdict);
		}
		expected--;
	}
	return 0;
}

int main(void)
{
	struct tlm_link link = {
		.listener = -1,
		.talker = -1,
	};
	int err = link_open(&link);

	if (err == 0) {
		err = transmit_samples(&link);
	}
	if (err == 0) {
		err = receive_and_decode(&link, ARRAY_SIZE(samples));
	}

	link_close(&link);
	return err;
}
