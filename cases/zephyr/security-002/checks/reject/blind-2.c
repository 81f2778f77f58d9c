/* defect: chunk_authentic maps every non-success status (bad key handle, out of memory, ...) to 0 instead of a negative value, so a failed check is indistinguishable from a forged tag.
 * breaks: "that returns `1` when `tag` is the correct HMAC-SHA256 of `msg`, `0` when it is not, and a negative value if the check itself could not be carried out."
 * must_fail: invalid_signature_distinguished
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#include <psa/crypto.h>
#include <mbedtls/platform_util.h>

#define MAC_ALG  PSA_ALG_HMAC(PSA_ALG_SHA_256)

static const uint8_t chunk[] = "fw-chunk:0001:len=64";
#define CHUNK_LEN (sizeof(chunk) - 1)

static const uint8_t chunk_tag[PSA_HASH_LENGTH(PSA_ALG_SHA_256)] = {
	0x1a, 0xb7, 0xef, 0x26, 0x89, 0xea, 0x10, 0xc4,
	0xe3, 0xbc, 0x61, 0x5b, 0x78, 0xb7, 0xaf, 0x54,
	0x3b, 0x68, 0xa6, 0x6e, 0xb1, 0x5c, 0x0f, 0xde,
	0x33, 0xf0, 0xf4, 0x0a, 0x49, 0xe7, 0xf6, 0x00,
};

/*
 * Returns 1 if tag is the HMAC-SHA256 of msg, 0 otherwise. The comparison is done
 * inside psa_mac_verify(), which is constant time, so the time a rejection
 * takes does not reveal how many tag bytes were right.
 */
int chunk_authentic(psa_key_id_t key, const uint8_t *msg, size_t msg_len,
		    const uint8_t *tag, size_t tag_len)
{
	psa_status_t status;

	status = psa_mac_verify(key, MAC_ALG, msg, msg_len, tag, tag_len);

	return (status == PSA_SUCCESS) ? 1 : 0;
}

int main(void)
{
	psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
	psa_key_id_t key = PSA_KEY_ID_NULL;
	psa_status_t status;
	uint8_t tampered[CHUNK_LEN];
	int res;
	int ret = 1;

	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		printk("psa_crypto_init failed: %d\n", (int)status);
		return 1;
	}

	psa_set_key_type(&attr, PSA_KEY_TYPE_HMAC);
	psa_set_key_bits(&attr, 256);
	psa_set_key_lifetime(&attr, PSA_KEY_LIFETIME_VOLATILE);
	/* Device only checks tags made by the server: verify, never sign */
	psa_set_key_usage_flags(&attr, PSA_KEY_USAGE_VERIFY_MESSAGE);
	psa_set_key_algorithm(&attr, MAC_ALG);

	{
		uint8_t raw_key[32];

		for (size_t i = 0; i < sizeof(raw_key); i++) {
			raw_key[i] = (uint8_t)i;
		}

		status = psa_import_key(&attr, raw_key, sizeof(raw_key), &key);
		mbedtls_platform_zeroize(raw_key, sizeof(raw_key));
	}
	psa_reset_key_attributes(&attr);

	if (status != PSA_SUCCESS) {
		printk("psa_import_key failed: %d\n", (int)status);
		return 1;
	}

	res = chunk_authentic(key, chunk, CHUNK_LEN, chunk_tag, sizeof(chunk_tag));
	if (res != 1) {
		printk("verify chunk failed: %d\n", res);
		goto out;
	}
	printk("mac valid\n");

	memcpy(tampered, chunk, CHUNK_LEN);
	tampered[0] ^= 0x01;

	res = chunk_authentic(key, tampered, sizeof(tampered), chunk_tag, sizeof(chunk_tag));
	if (res != 0) {
		printk("verify tampered chunk failed: %d\n", res);
		goto out;
	}
	printk("tamper rejected\n");

	ret = 0;

out:
	status = psa_destroy_key(key);
	if (status != PSA_SUCCESS) {
		printk("psa_destroy_key failed: %d\n", (int)status);
		ret = 1;
	}

	return ret;
}
