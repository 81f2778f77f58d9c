/* defect: The key policy includes PSA_KEY_USAGE_EXPORT, so psa_export_key can extract the private key from the key store.
 * breaks: "The private key must never be able to leave the key store; the application only signs and verifies with it."
 * must_fail: private_key_not_exportable
 */

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <psa/crypto.h>
#include <stdint.h>
#include <string.h>

#define IDENTITY_KEY_ID ((psa_key_id_t)0x00010001U)

static const char attestation_msg[] = "boot-attestation:fw=1.4.2";

static void print_hex(const char *label, const uint8_t *buf, size_t len)
{
	printk("%s: ", label);
	for (size_t i = 0; i < len; i++) {
		printk("%02x", buf[i]);
	}
	printk("\n");
}

int main(void)
{
	psa_key_attributes_t attributes = PSA_KEY_ATTRIBUTES_INIT;
	psa_key_id_t key = PSA_KEY_ID_NULL;
	uint8_t digest[PSA_HASH_MAX_SIZE];
	size_t digest_len = 0;
	uint8_t sig[PSA_SIGNATURE_MAX_SIZE];
	size_t sig_len = 0;
	uint8_t pub[PSA_EXPORT_PUBLIC_KEY_MAX_SIZE];
	size_t pub_len = 0;
	psa_status_t status;
	const char *step;

	step = "psa_crypto_init";
	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		goto fail;
	}

	psa_set_key_id(&attributes, IDENTITY_KEY_ID);
	psa_set_key_type(&attributes,
			 PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1));
	psa_set_key_bits(&attributes, 256);
	psa_set_key_algorithm(&attributes, PSA_ALG_ECDSA(PSA_ALG_SHA_256));
	psa_set_key_usage_flags(&attributes,
				PSA_KEY_USAGE_SIGN_HASH |
				PSA_KEY_USAGE_VERIFY_HASH |
				PSA_KEY_USAGE_EXPORT);

	step = "psa_generate_key";
	status = psa_generate_key(&attributes, &key);
	psa_reset_key_attributes(&attributes);

	if (status == PSA_SUCCESS) {
		printk("identity key created (id 0x%08x)\n",
		       (unsigned int)IDENTITY_KEY_ID);
	} else if (status == PSA_ERROR_ALREADY_EXISTS) {
		key = IDENTITY_KEY_ID;
		printk("identity key loaded (id 0x%08x)\n",
		       (unsigned int)IDENTITY_KEY_ID);
	} else {
		goto fail;
	}

	/* Publish the public half so a server can check attestations. */
	step = "psa_export_public_key";
	status = psa_export_public_key(key, pub, sizeof(pub), &pub_len);
	if (status != PSA_SUCCESS) {
		goto fail;
	}
	print_hex("identity public key", pub, pub_len);

	step = "psa_hash_compute";
	status = psa_hash_compute(PSA_ALG_SHA_256,
				  (const uint8_t *)attestation_msg,
				  strlen(attestation_msg),
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
	printk("%s failed: %d\n", step, (int)status);
	return -1;
}
