#include <string.h>
#include <zephyr/kernel.h>
#include <psa/crypto.h>

#define IDENTITY_KEY_ID ((psa_key_id_t)0x00010001)
#define SIGN_ALG        PSA_ALG_ECDSA(PSA_ALG_SHA_256)

static const uint8_t message[] = "boot-attestation:fw=1.4.2";

static psa_status_t load_or_create_key(psa_key_id_t *key)
{
	psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
	psa_status_t status;

	status = psa_get_key_attributes(IDENTITY_KEY_ID, &attr);
	psa_reset_key_attributes(&attr);
	if (status == PSA_SUCCESS) {
		*key = IDENTITY_KEY_ID;
		return PSA_SUCCESS;
	}
	if (status != PSA_ERROR_INVALID_HANDLE && status != PSA_ERROR_DOES_NOT_EXIST) {
		return status;
	}

	psa_set_key_id(&attr, IDENTITY_KEY_ID);
	psa_set_key_lifetime(&attr, PSA_KEY_LIFETIME_PERSISTENT);
	psa_set_key_type(&attr, PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1));
	psa_set_key_bits(&attr, 256);
	psa_set_key_usage_flags(&attr, PSA_KEY_USAGE_SIGN_HASH | PSA_KEY_USAGE_VERIFY_HASH);
	psa_set_key_algorithm(&attr, SIGN_ALG);

	status = psa_generate_key(&attr, key);
	psa_reset_key_attributes(&attr);
	return status;
}

int main(void)
{
	psa_key_id_t key = PSA_KEY_ID_NULL;
	uint8_t hash[PSA_HASH_LENGTH(PSA_ALG_SHA_256)];
	uint8_t signature[PSA_SIGN_OUTPUT_SIZE(PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1),
					       256, SIGN_ALG)];
	size_t hash_len = 0;
	size_t sig_len = 0;
	psa_status_t status;

	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		printk("psa_crypto_init failed: %d\n", status);
		return -1;
	}

	status = load_or_create_key(&key);
	if (status != PSA_SUCCESS) {
		printk("identity key unavailable: %d\n", status);
		return -1;
	}

	status = psa_hash_compute(PSA_ALG_SHA_256, message, sizeof(message) - 1,
				  hash, sizeof(hash), &hash_len);
	if (status != PSA_SUCCESS) {
		printk("hash failed: %d\n", status);
		return -1;
	}

	status = psa_sign_hash(key, SIGN_ALG, hash, hash_len, signature, sizeof(signature), &sig_len);
	if (status != PSA_SUCCESS) {
		printk("sign failed: %d\n", status);
		return -1;
	}

	status = psa_verify_hash(key, SIGN_ALG, hash, hash_len, signature, sig_len);
	if (status != PSA_SUCCESS) {
		printk("verify failed: %d\n", status);
		return -1;
	}

	printk("signature verified\n");
	return 0;
}
