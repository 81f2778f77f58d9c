/* defect: when psa_aead_decrypt fails main returns directly instead of going through cleanup, leaving the imported key in the key store.
 * breaks: "The key must not remain in the key store after `main` returns, on any path."
 * must_fail: key_destroyed_on_all_paths
 */

#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#include <psa/crypto.h>
#include <mbedtls/platform_util.h>

#define KEY_TYPE   PSA_KEY_TYPE_AES
#define KEY_BITS   128
#define AEAD_ALG   PSA_ALG_GCM

#define RECORD     "temp=21.50;hum=40"
#define RECORD_LEN (sizeof(RECORD) - 1)
#define AD         "dev-7"
#define AD_LEN     (sizeof(AD) - 1)

#define NONCE_SIZE PSA_AEAD_NONCE_LENGTH(KEY_TYPE, AEAD_ALG)
#define CT_SIZE    PSA_AEAD_ENCRYPT_OUTPUT_SIZE(KEY_TYPE, AEAD_ALG, RECORD_LEN)
#define PT_SIZE    PSA_AEAD_DECRYPT_OUTPUT_SIZE(KEY_TYPE, AEAD_ALG, CT_SIZE)

BUILD_ASSERT(NONCE_SIZE == 12, "GCM nonce must be 96 bits");

static const uint8_t record[] = RECORD;
static const uint8_t ad[] = AD;

static void report(const char *step, psa_status_t status)
{
	printk("%s failed: %d\n", step, (int)status);
}

int main(void)
{
	psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
	psa_key_id_t key_id = PSA_KEY_ID_NULL;
	psa_status_t status;
	uint8_t nonce[NONCE_SIZE];
	uint8_t ciphertext[CT_SIZE];
	uint8_t decrypted[PT_SIZE];
	size_t ct_len = 0;
	size_t pt_len = 0;
	int ret = 1;

	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		report("psa_crypto_init", status);
		return 1;
	}

	psa_set_key_lifetime(&attr, PSA_KEY_LIFETIME_VOLATILE);
	psa_set_key_usage_flags(&attr, PSA_KEY_USAGE_ENCRYPT | PSA_KEY_USAGE_DECRYPT);
	psa_set_key_algorithm(&attr, AEAD_ALG);
	psa_set_key_type(&attr, KEY_TYPE);
	psa_set_key_bits(&attr, KEY_BITS);

	{
		/* Raw key as read from the provisioning store */
		uint8_t raw_key[KEY_BITS / 8] = {
			0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
			0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
		};

		status = psa_import_key(&attr, raw_key, sizeof(raw_key), &key_id);

		/* The key store has its own copy now (or import failed):
		 * wipe the plaintext key material immediately either way.
		 */
		mbedtls_platform_zeroize(raw_key, sizeof(raw_key));
	}
	psa_reset_key_attributes(&attr);

	if (status != PSA_SUCCESS) {
		report("psa_import_key", status);
		return 1;
	}

	/* Random 96-bit nonce: no nonce state has to survive reboots */
	status = psa_generate_random(nonce, sizeof(nonce));
	if (status != PSA_SUCCESS) {
		report("psa_generate_random", status);
		goto cleanup;
	}

	status = psa_aead_encrypt(key_id, AEAD_ALG,
				  nonce, sizeof(nonce),
				  ad, AD_LEN,
				  record, RECORD_LEN,
				  ciphertext, sizeof(ciphertext), &ct_len);
	if (status != PSA_SUCCESS) {
		report("psa_aead_encrypt", status);
		goto cleanup;
	}

	status = psa_aead_decrypt(key_id, AEAD_ALG,
				  nonce, sizeof(nonce),
				  ad, AD_LEN,
				  ciphertext, ct_len,
				  decrypted, sizeof(decrypted), &pt_len);
	if (status != PSA_SUCCESS) {
		report("psa_aead_decrypt", status);
		return 1;
	}

	if (pt_len != RECORD_LEN || memcmp(decrypted, record, RECORD_LEN) != 0) {
		printk("compare failed: %d\n", (int)PSA_ERROR_CORRUPTION_DETECTED);
		goto cleanup;
	}

	printk("gcm roundtrip ok\n");
	ret = 0;

cleanup:
	status = psa_destroy_key(key_id);
	if (status != PSA_SUCCESS) {
		report("psa_destroy_key", status);
		ret = 1;
	}

	return ret;
}
