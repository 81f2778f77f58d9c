/*
 * Firmware update chunk authentication: HMAC-SHA256 tags checked through the
 * PSA Crypto verify operation, so a forged tag is rejected in constant time.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mbedtls/platform_util.h>
#include <psa/crypto.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define CHUNK_MAC_ALG  PSA_ALG_HMAC(PSA_ALG_SHA_256)
#define CHUNK_TAG_SIZE PSA_HASH_LENGTH(PSA_ALG_SHA_256)

/* Chunk and tag as they come from the update server (tag in hex). */
static const char rx_chunk[] = "fw-chunk:0001:len=64";
static const char rx_tag_hex[] = "1ab7ef2689ea10c4e3bc615b78b7af543b68a66eb15c0fde33f0f40a49e7f600";

int chunk_authentic(psa_key_id_t key, const uint8_t *msg, size_t msg_len, const uint8_t *tag,
		    size_t tag_len)
{
	psa_status_t verdict;

	if (tag == NULL || (msg == NULL && msg_len != 0U)) {
		return -EINVAL;
	}

	/* The comparison happens inside PSA, in constant time. */
	verdict = psa_mac_verify(key, CHUNK_MAC_ALG, msg, msg_len, tag, tag_len);
	if (verdict == PSA_ERROR_INVALID_SIGNATURE) {
		return 0;
	}
	if (verdict != PSA_SUCCESS) {
		/* PSA error codes are negative, so they double as the failure value. */
		return (int)verdict;
	}
	return 1;
}

/*
 * Imports the fixed test key as a volatile HMAC-SHA256 key that may only
 * verify. The attributes start out volatile, which is what is wanted here.
 */
static psa_status_t provision_verify_key(psa_key_id_t *id_out)
{
	uint8_t secret[32] = {
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
		0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
		0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
		0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	};
	psa_key_attributes_t attributes = psa_key_attributes_init();
	psa_status_t rc;

	psa_set_key_type(&attributes, PSA_KEY_TYPE_HMAC);
	psa_set_key_bits(&attributes, PSA_BYTES_TO_BITS(sizeof(secret)));
	psa_set_key_algorithm(&attributes, CHUNK_MAC_ALG);
	psa_set_key_usage_flags(&attributes, PSA_KEY_USAGE_VERIFY_MESSAGE);

	rc = psa_import_key(&attributes, secret, sizeof(secret), id_out);
	mbedtls_platform_zeroize(secret, sizeof(secret));
	psa_reset_key_attributes(&attributes);
	if (rc != PSA_SUCCESS) {
		*id_out = PSA_KEY_ID_NULL;
		return rc;
	}
	return PSA_SUCCESS;
}

/* Runs the genuine and the tampered check; 0 when both behave as expected. */
static int check_received_chunk(psa_key_id_t key)
{
	uint8_t tag[CHUNK_TAG_SIZE];
	uint8_t forged[sizeof(rx_chunk) - 1];
	int verdict;

	if (hex2bin(rx_tag_hex, sizeof(rx_tag_hex) - 1, tag, sizeof(tag)) != sizeof(tag)) {
		printk("step: decode tag, status %d\n", -EINVAL);
		return 1;
	}

	verdict = chunk_authentic(key, (const uint8_t *)rx_chunk, sizeof(rx_chunk) - 1, tag,
				  sizeof(tag));
	if (verdict != 1) {
		printk("step: verify genuine chunk, status %d\n", verdict);
		return 1;
	}
	printk("mac valid\n");

	memcpy(forged, rx_chunk, sizeof(forged));
	forged[sizeof(forged) - 1] ^= BIT(0);

	verdict = chunk_authentic(key, forged, sizeof(forged), tag, sizeof(tag));
	if (verdict != 0) {
		printk("step: verify tampered chunk, status %d\n", verdict);
		return 1;
	}
	printk("tamper rejected\n");
	return 0;
}

int main(void)
{
	psa_key_id_t hmac_key = PSA_KEY_ID_NULL;
	psa_status_t st;
	int result;

	st = psa_crypto_init();
	if (st != PSA_SUCCESS) {
		printk("step: psa_crypto_init, status %d\n", (int)st);
		return 1;
	}

	st = provision_verify_key(&hmac_key);
	if (st != PSA_SUCCESS) {
		printk("step: import key, status %d\n", (int)st);
		return 1;
	}

	/* From here on every outcome falls through to the destroy below. */
	result = check_received_chunk(hmac_key);

	st = psa_destroy_key(hmac_key);
	if (st != PSA_SUCCESS) {
		printk("step: destroy key, status %d\n", (int)st);
		result = 1;
	}
	return result;
}
