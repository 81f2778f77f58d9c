/*
 * Firmware update chunk authentication: HMAC-SHA256 tags from the update
 * server are checked with a verify-only PSA key, using the multi-part MAC
 * verify operation (constant-time tag comparison inside the library).
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#include <psa/crypto.h>
#include <mbedtls/platform_util.h>

#define HMAC_KEY_LEN 32

static const char rx_chunk[] = "fw-chunk:0001:len=64";
static const char rx_tag_hex[] =
	"1ab7ef2689ea10c4e3bc615b78b7af543b68a66eb15c0fde33f0f40a49e7f600";

int chunk_authentic(psa_key_id_t key, const uint8_t *msg, size_t msg_len,
		    const uint8_t *tag, size_t tag_len)
{
	psa_mac_operation_t op = PSA_MAC_OPERATION_INIT;
	psa_status_t status;

	if ((msg == NULL && msg_len != 0U) || tag == NULL) {
		return (int)PSA_ERROR_INVALID_ARGUMENT;
	}

	status = psa_mac_verify_setup(&op, key, PSA_ALG_HMAC(PSA_ALG_SHA_256));
	if (status == PSA_SUCCESS) {
		status = psa_mac_update(&op, msg, msg_len);
	}
	if (status == PSA_SUCCESS) {
		/* Library compares in constant time; no early-exit memcmp */
		status = psa_mac_verify_finish(&op, tag, tag_len);
	}

	psa_mac_abort(&op);

	if (status == PSA_SUCCESS) {
		return 1;
	}
	if (status == PSA_ERROR_INVALID_SIGNATURE) {
		return 0;
	}
	return (status < 0) ? (int)status : -1;
}

static psa_status_t import_hmac_key(psa_key_id_t *key)
{
	psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
	uint8_t raw[HMAC_KEY_LEN] = {
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
		0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
		0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
		0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	};
	psa_status_t status;

	psa_set_key_type(&attr, PSA_KEY_TYPE_HMAC);
	psa_set_key_bits(&attr, PSA_BYTES_TO_BITS(HMAC_KEY_LEN));
	psa_set_key_usage_flags(&attr, PSA_KEY_USAGE_VERIFY_MESSAGE);
	psa_set_key_algorithm(&attr, PSA_ALG_HMAC(PSA_ALG_SHA_256));
	/* lifetime left at its default: PSA_KEY_LIFETIME_VOLATILE */

	status = psa_import_key(&attr, raw, sizeof(raw), key);
	mbedtls_platform_zeroize(raw, sizeof(raw));
	psa_reset_key_attributes(&attr);

	return status;
}

static int run_checks(psa_key_id_t key)
{
	uint8_t tag[PSA_HASH_LENGTH(PSA_ALG_SHA_256)];
	uint8_t copy[sizeof(rx_chunk) - 1];
	const size_t len = sizeof(rx_chunk) - 1;
	int res;

	if (hex2bin(rx_tag_hex, strlen(rx_tag_hex), tag, sizeof(tag)) != sizeof(tag)) {
		printk("tag decode failed: %d\n", -EINVAL);
		return -1;
	}

	res = chunk_authentic(key, (const uint8_t *)rx_chunk, len, tag, sizeof(tag));
	if (res != 1) {
		printk("check received chunk: unexpected result %d\n", res);
		return -1;
	}
	printk("mac valid\n");

	memcpy(copy, rx_chunk, len);
	copy[len / 2] ^= 0x80;

	res = chunk_authentic(key, copy, len, tag, sizeof(tag));
	if (res != 0) {
		printk("check tampered chunk: unexpected result %d\n", res);
		return -1;
	}
	printk("tamper rejected\n");

	return 0;
}

int main(void)
{
	psa_key_id_t key;
	psa_status_t status;
	int err;

	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		printk("crypto init failed: %d\n", (int)status);
		return 1;
	}

	status = import_hmac_key(&key);
	if (status != PSA_SUCCESS) {
		printk("key import failed: %d\n", (int)status);
		return 1;
	}

	err = run_checks(key);

	status = psa_destroy_key(key);
	if (status != PSA_SUCCESS) {
		printk("key destroy failed: %d\n", (int)status);
		return 1;
	}

	return (err == 0) ? 0 : 1;
}
