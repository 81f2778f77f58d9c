#include <string.h>
#include <zephyr/kernel.h>
#include <psa/crypto.h>
#include <mbedtls/platform_util.h>

static const char msg[] = "temp=21.50;hum=40";
static const char ad[] = "dev-7";

int main(void)
{
	uint8_t key_bytes[16];
	psa_key_attributes_t attributes = PSA_KEY_ATTRIBUTES_INIT;
	psa_key_id_t key_id;
	uint8_t iv[12];
	uint8_t sealed[sizeof(msg) - 1 + PSA_AEAD_TAG_LENGTH(PSA_KEY_TYPE_AES, 128, PSA_ALG_GCM)];
	uint8_t opened[sizeof(msg) - 1];
	size_t sealed_len;
	size_t opened_len;
	psa_status_t st;
	int rc = 1;

	if (psa_crypto_init() != PSA_SUCCESS) {
		printk("crypto init failed\n");
		return 1;
	}

	for (int i = 0; i < 16; i++) {
		key_bytes[i] = (uint8_t)i;
	}
	psa_set_key_usage_flags(&attributes, PSA_KEY_USAGE_ENCRYPT | PSA_KEY_USAGE_DECRYPT);
	psa_set_key_algorithm(&attributes, PSA_ALG_GCM);
	psa_set_key_type(&attributes, PSA_KEY_TYPE_AES);
	psa_set_key_bits(&attributes, 128);
	st = psa_import_key(&attributes, key_bytes, sizeof(key_bytes), &key_id);
	mbedtls_platform_zeroize(key_bytes, sizeof(key_bytes));
	if (st != PSA_SUCCESS) {
		printk("import: %d\n", (int)st);
		return 1;
	}

	st = psa_generate_random(iv, sizeof(iv));
	if (st != PSA_SUCCESS) {
		printk("random: %d\n", (int)st);
		goto done;
	}
	st = psa_aead_encrypt(key_id, PSA_ALG_GCM, iv, sizeof(iv), (const uint8_t *)ad, strlen(ad),
			      (const uint8_t *)msg, strlen(msg), sealed, sizeof(sealed), &sealed_len);
	if (st != PSA_SUCCESS) {
		printk("encrypt: %d\n", (int)st);
		goto done;
	}
	st = psa_aead_decrypt(key_id, PSA_ALG_GCM, iv, sizeof(iv), (const uint8_t *)ad, strlen(ad),
			      sealed, sealed_len, opened, sizeof(opened), &opened_len);
	if (st != PSA_SUCCESS) {
		printk("decrypt: %d\n", (int)st);
		goto done;
	}
	if (opened_len == strlen(msg) && memcmp(opened, msg, opened_len) == 0) {
		printk("gcm roundtrip ok\n");
		rc = 0;
	}

done:
	psa_destroy_key(key_id);
	return rc;
}
