/* defect: The common error path calls psa_destroy_key, which permanently erases the persistent identity key from storage whenever signing or verification fails.
 * breaks: "The identity key must still be available on the next boot."
 * must_fail: attributes_reset_key_kept
 */

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <psa/crypto.h>
#include <string.h>

#define DEVICE_KEY_ID   ((psa_key_id_t)0x00010001)
#define DEVICE_KEY_ALG  PSA_ALG_ECDSA(PSA_ALG_SHA_256)
#define DEVICE_KEY_TYPE PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1)

static const char message[] = "boot-attestation:fw=1.4.2";

static psa_status_t get_or_create_identity_key(psa_key_id_t *key_id)
{
	psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
	psa_status_t status;

	status = psa_get_key_attributes(DEVICE_KEY_ID, &attr);
	psa_reset_key_attributes(&attr);
	if (status == PSA_SUCCESS) {
		printk("using stored identity key\n");
		*key_id = DEVICE_KEY_ID;
		return PSA_SUCCESS;
	}
	if (status != PSA_ERROR_INVALID_HANDLE &&
	    status != PSA_ERROR_DOES_NOT_EXIST) {
		printk("psa_get_key_attributes failed: %d\n", (int)status);
		return status;
	}

	psa_set_key_id(&attr, DEVICE_KEY_ID);
	psa_set_key_usage_flags(&attr, PSA_KEY_USAGE_SIGN_HASH |
				       PSA_KEY_USAGE_VERIFY_HASH);
	psa_set_key_algorithm(&attr, DEVICE_KEY_ALG);
	psa_set_key_type(&attr, DEVICE_KEY_TYPE);
	psa_set_key_bits(&attr, 256);

	status = psa_generate_key(&attr, key_id);
	psa_reset_key_attributes(&attr);
	if (status != PSA_SUCCESS) {
		printk("psa_generate_key failed: %d\n", (int)status);
		return status;
	}

	printk("generated new identity key\n");
	return PSA_SUCCESS;
}

int main(void)
{
	psa_key_id_t key_id = PSA_KEY_ID_NULL;
	uint8_t hash[PSA_HASH_LENGTH(PSA_ALG_SHA_256)];
	uint8_t signature[PSA_SIGN_OUTPUT_SIZE(DEVICE_KEY_TYPE, 256)];
	size_t hash_len = 0;
	size_t sig_len = 0;
	psa_status_t status;
	int ret = 1;

	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		printk("psa_crypto_init failed: %d\n", (int)status);
		return 1;
	}

	status = get_or_create_identity_key(&key_id);
	if (status != PSA_SUCCESS) {
		return 1;
	}

	status = psa_hash_compute(PSA_ALG_SHA_256,
				  (const uint8_t *)message, strlen(message),
				  hash, sizeof(hash), &hash_len);
	if (status != PSA_SUCCESS) {
		printk("psa_hash_compute failed: %d\n", (int)status);
		goto cleanup;
	}

	status = psa_sign_hash(key_id, DEVICE_KEY_ALG, hash, hash_len,
			       signature, sizeof(signature), &sig_len);
	if (status != PSA_SUCCESS) {
		printk("psa_sign_hash failed: %d\n", (int)status);
		goto cleanup;
	}

	status = psa_verify_hash(key_id, DEVICE_KEY_ALG, hash, hash_len,
				 signature, sig_len);
	if (status != PSA_SUCCESS) {
		printk("psa_verify_hash failed: %d\n", (int)status);
		goto cleanup;
	}

	printk("signature verified\n");
	return 0;

cleanup:
	status = psa_destroy_key(key_id);
	if (status != PSA_SUCCESS) {
		printk("psa_destroy_key failed: %d\n", (int)status);
	}
	return ret;
}
