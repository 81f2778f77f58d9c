/*
 * Device signing identity with PSA Crypto (Mbed TLS + PSA ITS).
 *
 * Strategy: ask the crypto library to generate the persistent identity key
 * under its fixed id. If a key with that id is already in the key store the
 * library refuses with PSA_ERROR_ALREADY_EXISTS and the stored key is used
 * unchanged. The key policy only allows sign/verify, never export.
 */

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <psa/crypto.h>
#include <stdint.h>
#include <string.h>

#define IDENTITY_KEY_ID ((psa_key_id_t)0x00010001U)

static const char attestation_msg[] = "boot-attestation:fw=1.4.2";

int main(void)
{
	psa_key_attributes_t attributes = PSA_KEY_ATTRIBUTES_INIT;
	psa_key_id_t key = PSA_KEY_ID_NULL;
	uint8_t digest[PSA_HASH_MAX_SIZE];
	size_t digest_len = 0;
	uint8_t sig[PSA_SIGNATURE_MAX_SIZE];
	size_t sig_len = 0;
	psa_status_t status;
	const char *step;

	step = "psa_crypto_init";
	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		goto fail;
	}

	/* Persistent key (psa_set_key_id implies the persistent lifetime). */
	psa_set_key_id(&attributes, IDENTITY_KEY_ID);
	psa_set_key_type(&attributes,
			 PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1));
	psa_set_key_bits(&attributes, 256);
	psa_set_key_algorithm(&attributes, PSA_ALG_ECDSA(PSA_ALG_SHA_256));
	/* No PSA_KEY_USAGE_EXPORT: the private key cannot leave the store. */
	psa_set_key_usage_flags(&attributes,
				PSA_KEY_USAGE_SIGN_HASH |
				PSA_KEY_USAGE_VERIFY_HASH);

	step = "psa_generate_key";
	status = psa_generate_key(&attributes, &key);
	psa_reset_key_attributes(&attributes);

	if (status == PSA_SUCCESS) {
		printk("identity key created (id 0x%08x)\n",
		       (unsigned int)IDENTITY_KEY_ID);
	} else if (status == PSA_ERROR_ALREADY_EXISTS) {
		key = IDENTITY_KEY_ID;

		/* Make sure the stored key really is our signing identity. */
		step = "psa_get_key_attributes";
		status = psa_get_key_attributes(key, &attributes);
		if (status == PSA_SUCCESS &&
		    (psa_get_key_type(&attributes) !=
			     PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1) ||
		     psa_get_key_bits(&attributes) != 256 ||
		     (psa_get_key_usage_flags(&attributes) &
		      PSA_KEY_USAGE_EXPORT) != 0U)) {
			step = "stored identity key policy check";
			status = PSA_ERROR_NOT_PERMITTED;
		}
		psa_reset_key_attributes(&attributes);
		if (status != PSA_SUCCESS) {
			goto fail;
		}
		printk("identity key loaded (id 0x%08x)\n",
		       (unsigned int)IDENTITY_KEY_ID);
	} else {
		goto fail;
	}

	step = "psa_hash_compute";
	status = psa_hash_compute(PSA_ALG_SHA_256,
				  (const uint8_t *)attestation_msg,
				  sizeof(attestation_msg) - 1,
				  digest, sizeof(digest), &digest_len);
	if (status != PSA_SUCCESS) {
		goto fail;
	}

	step = "psa_sign_hash";
	status = psa_sign_hash(key, PSA_ALG_ECDSA(PSA_ALG_SHA_256),
			       digest, digest_len,
			       sig, sizeof(sig), &sig_len);
	if (status != PSA_SUCCESS) {
		goto fail;
	}

	step = "psa_verify_hash";
	status = psa_verify_hash(key, PSA_ALG_ECDSA(PSA_ALG_SHA_256),
				 digest, digest_len, sig, sig_len);
	if (status != PSA_SUCCESS) {
		goto fail;
	}

	printk("signature verified\n");
	return 0;

fail:
	/* The stored identity key is intentionally left in place. */
	printk("%s failed: %d\n", step, (int)status);
	return -1;
}
