/*
 * AES-128-GCM round trip. main() owns the key for its whole life (import,
 * wipe of the raw bytes, destroy); the AEAD work lives in a helper that may
 * leave early, because the only exit from main after the import goes through
 * psa_destroy_key().
 */
#include <string.h>
#include <stdbool.h>
#include <zephyr/kernel.h>
#include <psa/crypto.h>
#include <mbedtls/platform_util.h>

#define TELEMETRY      "temp=21.50;hum=40"
#define TELEMETRY_LEN  (sizeof(TELEMETRY) - 1)
#define DEVICE_AAD     "dev-7"
#define DEVICE_AAD_LEN (sizeof(DEVICE_AAD) - 1)

#define GCM_NONCE_LEN  PSA_AEAD_NONCE_LENGTH(PSA_KEY_TYPE_AES, PSA_ALG_GCM)
#define SEALED_MAX     PSA_AEAD_ENCRYPT_OUTPUT_MAX_SIZE(TELEMETRY_LEN)
#define OPENED_MAX     PSA_AEAD_DECRYPT_OUTPUT_MAX_SIZE(SEALED_MAX)

static void report(const char *step, psa_status_t status)
{
	printk("%s failed, status %d\n", step, (int)status);
}

static int seal_then_open(psa_key_id_t key_id)
{
	uint8_t iv[GCM_NONCE_LEN];
	uint8_t sealed[SEALED_MAX];
	uint8_t opened[OPENED_MAX];
	size_t sealed_len;
	size_t opened_len;
	psa_status_t st;
	bool same;

	st = psa_generate_random(iv, sizeof(iv));
	if (st != PSA_SUCCESS) {
		report("nonce", st);
		return -1;
	}

	st = psa_aead_encrypt(key_id, PSA_ALG_GCM, iv, sizeof(iv),
			      (const uint8_t *)DEVICE_AAD, DEVICE_AAD_LEN,
			      (const uint8_t *)TELEMETRY, TELEMETRY_LEN,
			      sealed, sizeof(sealed), &sealed_len);
	if (st != PSA_SUCCESS) {
		report("psa_aead_encrypt", st);
		return -1;
	}

	st = psa_aead_decrypt(key_id, PSA_ALG_GCM, iv, sizeof(iv),
			      (const uint8_t *)DEVICE_AAD, DEVICE_AAD_LEN,
			      sealed, sealed_len, opened, sizeof(opened), &opened_len);
	if (st != PSA_SUCCESS) {
		report("psa_aead_decrypt", st);
		mbedtls_platform_zeroize(opened, sizeof(opened));
		return -1;
	}

	same = opened_len == TELEMETRY_LEN && memcmp(opened, TELEMETRY, TELEMETRY_LEN) == 0;
	mbedtls_platform_zeroize(opened, sizeof(opened));
	if (!same) {
		printk("decrypted record differs from the original\n");
		return -1;
	}

	printk("gcm roundtrip ok\n");
	return 0;
}

int main(void)
{
	psa_key_attributes_t key_attr = PSA_KEY_ATTRIBUTES_INIT;
	psa_key_id_t key_id = PSA_KEY_ID_NULL;
	psa_status_t st;
	int result;

	st = psa_crypto_init();
	if (st != PSA_SUCCESS) {
		report("psa_crypto_init", st);
		return 1;
	}

	psa_set_key_lifetime(&key_attr, PSA_KEY_LIFETIME_VOLATILE);
	psa_set_key_type(&key_attr, PSA_KEY_TYPE_AES);
	psa_set_key_bits(&key_attr, 128);
	psa_set_key_algorithm(&key_attr, PSA_ALG_GCM);
	psa_set_key_usage_flags(&key_attr, PSA_KEY_USAGE_DECRYPT | PSA_KEY_USAGE_ENCRYPT);

	{
		/* As read from the provisioning store; lives only until the import. */
		uint8_t provisioned[PSA_BITS_TO_BYTES(128)] = {
			0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
			0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
		};

		st = psa_import_key(&key_attr, provisioned, sizeof(provisioned), &key_id);
		mbedtls_platform_zeroize(provisioned, sizeof(provisioned));
	}
	psa_reset_key_attributes(&key_attr);
	if (st != PSA_SUCCESS) {
		report("psa_import_key", st);
		return 1;
	}

	result = seal_then_open(key_id);

	st = psa_destroy_key(key_id);
	if (st != PSA_SUCCESS) {
		report("psa_destroy_key", st);
		result = 1;
	}

	return result == 0 ? 0 : 1;
}
