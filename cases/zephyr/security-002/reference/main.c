#include <string.h>
#include <zephyr/kernel.h>
#include <psa/crypto.h>
#include <mbedtls/platform_util.h>

#define HMAC_ALG PSA_ALG_HMAC(PSA_ALG_SHA_256)

static const uint8_t chunk[] = "fw-chunk:0001:len=64";

static const uint8_t chunk_tag[32] = {
	0x1a, 0xb7, 0xef, 0x26, 0x89, 0xea, 0x10, 0xc4, 0xe3, 0xbc, 0x61, 0x5b, 0x78, 0xb7, 0xaf, 0x54,
	0x3b, 0x68, 0xa6, 0x6e, 0xb1, 0x5c, 0x0f, 0xde, 0x33, 0xf0, 0xf4, 0x0a, 0x49, 0xe7, 0xf6, 0x00,
};

static psa_status_t import_key(psa_key_id_t *key)
{
	psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
	uint8_t raw[32];
	psa_status_t status;

	for (size_t i = 0; i < sizeof(raw); i++) {
		raw[i] = (uint8_t)i;
	}

	psa_set_key_type(&attr, PSA_KEY_TYPE_HMAC);
	psa_set_key_bits(&attr, 256);
	psa_set_key_usage_flags(&attr, PSA_KEY_USAGE_VERIFY_MESSAGE);
	psa_set_key_algorithm(&attr, HMAC_ALG);
	psa_set_key_lifetime(&attr, PSA_KEY_LIFETIME_VOLATILE);

	status = psa_import_key(&attr, raw, sizeof(raw), key);
	mbedtls_platform_zeroize(raw, sizeof(raw));
	psa_reset_key_attributes(&attr);
	return status;
}

int chunk_authentic(psa_key_id_t key, const uint8_t *msg, size_t msg_len, const uint8_t *tag,
		    size_t tag_len)
{
	psa_status_t status;

	status = psa_mac_verify(key, HMAC_ALG, msg, msg_len, tag, tag_len);
	if (status == PSA_SUCCESS) {
		return 1;
	}
	if (status == PSA_ERROR_INVALID_SIGNATURE) {
		return 0;
	}
	printk("mac verify failed: %d\n", status);
	return -1;
}

int main(void)
{
	psa_key_id_t key = PSA_KEY_ID_NULL;
	uint8_t tampered[sizeof(chunk) - 1];
	psa_status_t status;
	int ret = -1;
	int ok;

	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		printk("psa_crypto_init failed: %d\n", status);
		return -1;
	}

	status = import_key(&key);
	if (status != PSA_SUCCESS) {
		printk("import failed: %d\n", status);
		return -1;
	}

	ok = chunk_authentic(key, chunk, sizeof(chunk) - 1, chunk_tag, sizeof(chunk_tag));
	if (ok != 1) {
		printk("genuine chunk not accepted: %d\n", ok);
		goto out;
	}
	printk("mac valid\n");

	memcpy(tampered, chunk, sizeof(tampered));
	tampered[5] ^= 0x01;
	ok = chunk_authentic(key, tampered, sizeof(tampered), chunk_tag, sizeof(chunk_tag));
	if (ok != 0) {
		printk("tampered chunk not rejected: %d\n", ok);
		goto out;
	}
	printk("tamper rejected\n");
	ret = 0;

out:
	status = psa_destroy_key(key);
	if (status != PSA_SUCCESS) {
		printk("destroy failed: %d\n", status);
		ret = -1;
	}
	return ret;
}
