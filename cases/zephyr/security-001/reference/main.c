#include <string.h>
#include <zephyr/kernel.h>
#include <psa/crypto.h>
#include <mbedtls/platform_util.h>

#define NONCE_LEN 12

static const uint8_t record[] = "temp=21.50;hum=40";
static const uint8_t aad[] = "dev-7";

static psa_status_t import_key(psa_key_id_t *key)
{
	psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
	uint8_t raw[16] = {
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
		0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	};
	psa_status_t status;

	psa_set_key_type(&attr, PSA_KEY_TYPE_AES);
	psa_set_key_bits(&attr, 128);
	psa_set_key_lifetime(&attr, PSA_KEY_LIFETIME_VOLATILE);
	psa_set_key_usage_flags(&attr, PSA_KEY_USAGE_ENCRYPT | PSA_KEY_USAGE_DECRYPT);
	psa_set_key_algorithm(&attr, PSA_ALG_GCM);

	status = psa_import_key(&attr, raw, sizeof(raw), key);
	mbedtls_platform_zeroize(raw, sizeof(raw));
	psa_reset_key_attributes(&attr);
	return status;
}

int main(void)
{
	psa_key_id_t key = PSA_KEY_ID_NULL;
	uint8_t nonce[NONCE_LEN];
	uint8_t ciphertext[PSA_AEAD_ENCRYPT_OUTPUT_SIZE(PSA_KEY_TYPE_AES, PSA_ALG_GCM, sizeof(record))];
	uint8_t decrypted[PSA_AEAD_DECRYPT_OUTPUT_SIZE(PSA_KEY_TYPE_AES, PSA_ALG_GCM, sizeof(ciphertext))];
	size_t ct_len = 0;
	size_t pt_len = 0;
	psa_status_t status;
	int ret = -1;

	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		printk("psa_crypto_init failed: %d\n", status);
		return -1;
	}

	status = import_key(&key);
	if (status != PSA_SUCCESS) {
		printk("key import failed: %d\n", status);
		return -1;
	}

	status = psa_generate_random(nonce, sizeof(nonce));
	if (status != PSA_SUCCESS) {
		printk("nonce generation failed: %d\n", status);
		goto out;
	}

	status = psa_aead_encrypt(key, PSA_ALG_GCM, nonce, sizeof(nonce), aad, sizeof(aad) - 1,
				  record, sizeof(record) - 1, ciphertext, sizeof(ciphertext), &ct_len);
	if (status != PSA_SUCCESS) {
		printk("encrypt failed: %d\n", status);
		goto out;
	}

	status = psa_aead_decrypt(key, PSA_ALG_GCM, nonce, sizeof(nonce), aad, sizeof(aad) - 1,
				  ciphertext, ct_len, decrypted, sizeof(decrypted), &pt_len);
	if (status != PSA_SUCCESS) {
		printk("decrypt failed: %d\n", status);
		goto out;
	}

	if (pt_len == sizeof(record) - 1 && memcmp(decrypted, record, pt_len) == 0) {
		printk("gcm roundtrip ok\n");
		ret = 0;
	} else {
		printk("gcm roundtrip mismatch\n");
	}

out:
	mbedtls_platform_zeroize(decrypted, sizeof(decrypted));
	status = psa_destroy_key(key);
	if (status != PSA_SUCCESS) {
		printk("destroy key failed: %d\n", status);
		ret = -1;
	}
	return ret;
}
