/* defect: When the stored key is found, the attribute structure filled by psa_get_key_attributes is never passed to psa_reset_key_attributes.
 * breaks: "Do not leave key attribute structures holding state after use."
 * must_fail: attributes_reset_key_kept
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

static psa_status_t get_or_create_identity_key(psa_key_id_t *key_id)
{
	psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
	psa_status_t status;

	status = psa_get_key_attributes(DEVICE_KEY_ID, &attr);
	if (status == PSA_SUCCESS) {
		if (psa_get_key_type(&attr) != DEVICE_KEY_TYPE ||
		    psa_get_key_bits(&attr) != DEVICE_KEY_BITS ||
		    (psa_get_key_usage_flags(&attr) & PSA_KEY_USAGE_EXPORT)) {
			report("check stored identity key",
			       PSA_ERROR_NOT_PERMITTED);
			return PSA_ERROR_NOT_PERMITTED;
		}
		printk("using stored identity key 0x%08x\n",
		       (unsigned int)DEVICE_KEY_ID);
		*key_id = DEVICE_KEY_ID;
		return PSA_SUCCESS;
	}

	if (status != PSA_ERROR_INVALID_HANDLE &&
	    status != PSA_ERROR_DOES_NOT_EXIST) {
		report("psa_get_key_attributes", status);
		return status;
	}

	attr = psa_key_attributes_init();
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
	uint8_t signature[PSA_SIGN_OUTPUT_SIZE(DEVICE_KEY_TYPE, DEVICE_KEY_BITS)];
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
	return 0;
}
