/*
 * Persistent, non-exportable ECDSA P-256 device identity key (PSA Crypto).
 *
 * The key lives in PSA internal trusted storage under key id 0x00010001.
 * It is looked up on boot and generated inside the crypto library only
 * when it is not there yet. It is never destroyed by this application.
 */

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <psa/crypto.h>
#include <string.h>

#define DEVICE_KEY_ID   ((psa_key_id_t)0x00010001)
#define DEVICE_KEY_ALG  PSA_ALG_ECDSA(PSA_ALG_SHA_256)
#define DEVICE_KEY_TYPE PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1)
#define DEVICE_KEY_BITS 256U

static const char message[] = "boot-attestation:fw=1.4.2";

static void report(const char *step, psa_status_t status)
{
	printk("%s failed: status %d\n", step, (int)status);
}

/* Check that a stored key is the identity key we expect. */
static psa_status_t check_existing_key(const psa_key_attributes_t *attr)
{
	if (psa_get_key_type(attr) != DEVICE_KEY_TYPE ||
	    psa_get_key_bits(attr) != DEVICE_KEY_BITS ||
	    psa_get_key_algorithm(attr) != DEVICE_KEY_ALG) {
		return PSA_ERROR_INVALID_ARGUMENT;
	}
	if ((psa_get_key_usage_flags(attr) & PSA_KEY_USAGE_EXPORT) != 0U) {
		/* A key that could leave the key store is not acceptable. */
		return PSA_ERROR_NOT_PERMITTED;
	}
	if ((psa_get_key_usage_flags(attr) &
	     (PSA_KEY_USAGE_SIGN_HASH | PSA_KEY_USAGE_VERIFY_HASH)) !=
	    (PSA_KEY_USAGE_SIGN_HASH | PSA_KEY_USAGE_VERIFY_HASH)) {
		return PSA_ERROR_NOT_PERMITTED;
	}
	return PSA_SUCCESS;
}

/* Reuse the stored identity key, or create it if it does not exist. */
static psa_status_t get_or_create_identity_key(psa_key_id_t *key_id)
{
	psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
	psa_status_t status;

	status = psa_get_key_attributes(DEVICE_KEY_ID, &attr);
	if (status == PSA_SUCCESS) {
		status = check_existing_key(&attr);
		psa_reset_key_attributes(&attr);
		if (status != PSA_SUCCESS) {
			report("check stored identity key", status);
			return status;
		}
		printk("using stored identity key 0x%08x\n",
		       (unsigned int)DEVICE_KEY_ID);
		*key_id = DEVICE_KEY_ID;
		return PSA_SUCCESS;
	}

	psa_reset_key_attributes(&attr);

	if (status != PSA_ERROR_INVALID_HANDLE &&
	    status != PSA_ERROR_DOES_NOT_EXIST) {
		report("psa_get_key_attributes", status);
		return status;
	}

	/* Not in the key store yet: generate it inside the crypto library. */
	psa_set_key_id(&attr, DEVICE_KEY_ID);
	psa_set_key_lifetime(&attr, PSA_KEY_LIFETIME_PERSISTENT);
	psa_set_key_usage_flags(&attr, PSA_KEY_USAGE_SIGN_HASH |
				       PSA_KEY_USAGE_VERIFY_HASH);
	psa_set_key_algorithm(&attr, DEVICE_KEY_ALG);
	psa_set_key_type(&attr, DEVICE_KEY_TYPE);
	psa_set_key_bits(&attr, DEVICE_KEY_BITS);

	status = psa_generate_key(&attr, key_id);
	psa_reset_key_attributes(&attr);
	if (status != PSA_SUCCESS) {
		report("psa_generate_key", status);
		return status;
	}

	printk("generated new identity key 0x%08x\n",
	       (unsigned int)DEVICE_KEY_ID);
	return PSA_SUCCESS;
}

int main(void)
{
	psa_key_id_t key_id = PSA_KEY_ID_NULL;
	uint8_t hash[PSA_HASH_LENGTH(PSA_ALG_SHA_256)];
	uint8_t signature[PSA_SIGN_OUTPUT_SIZE(PSA_KEY_TYPE_ECC_KEY_PAIR(
		PSA_ECC_FAMILY_SECP_R1), 256)];
	size_t hash_len = 0;
	size_t sig_len = 0;
	psa_status_t status;

	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		report("psa_crypto_init", status);
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
		report("psa_hash_compute", status);
		return 1;
	}

	status = psa_sign_hash(key_id, DEVICE_KEY_ALG, hash, hash_len,
			       signature, sizeof(signature), &sig_len);
	if (status != PSA_SUCCESS) {
		report("psa_sign_hash", status);
		return 1;
	}

	status = psa_verify_hash(key_id, DEVICE_KEY_ALG, hash, hash_len,
				 signature, sig_len);
	if (status != PSA_SUCCESS) {
		report("psa_verify_hash", status);
		return 1;
	}

	printk("signature verified\n");

	/* The key stays in persistent storage for the next boot. */
	return 0;
}
