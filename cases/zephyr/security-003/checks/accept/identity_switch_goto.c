/*
 * Boot attestation with a device identity that lives in the PSA key store.
 *
 * The ECDSA P-256 key pair is persistent (PSA ITS) and only usable for
 * sign/verify of hashes, so the private half never leaves the crypto library.
 */
#include <stdbool.h>
#include <stdint.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <psa/crypto.h>

static const psa_key_id_t device_identity_id = 0x00010001;
static const psa_algorithm_t attest_alg = PSA_ALG_ECDSA(PSA_ALG_SHA_256);
static const char attest_text[] = "boot-attestation:fw=1.4.2";

struct attestation {
	psa_key_id_t key;
	uint8_t digest[PSA_HASH_LENGTH(PSA_ALG_SHA_256)];
	size_t digest_len;
	uint8_t sig[PSA_ECDSA_SIGNATURE_SIZE(256)];
	size_t sig_len;
};

/* Creates the identity inside the library; called only when none is stored. */
static psa_status_t mint_identity(psa_key_id_t *out)
{
	psa_key_attributes_t spec = psa_key_attributes_init();
	psa_status_t rc;

	psa_set_key_type(&spec, PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1));
	psa_set_key_bits(&spec, 256);
	psa_set_key_algorithm(&spec, attest_alg);
	/* hash sign/verify only: the key pair can be neither exported nor copied */
	psa_set_key_usage_flags(&spec, PSA_KEY_USAGE_VERIFY_HASH | PSA_KEY_USAGE_SIGN_HASH);
	psa_set_key_lifetime(&spec, PSA_KEY_LIFETIME_PERSISTENT);
	psa_set_key_id(&spec, device_identity_id);

	rc = psa_generate_key(&spec, out);
	psa_reset_key_attributes(&spec);
	if (rc == PSA_SUCCESS) {
		printk("device identity provisioned\n");
	}
	return rc;
}

/* Uses the stored identity, or mints one when the key store has none. */
static psa_status_t open_identity(psa_key_id_t *out)
{
	psa_key_attributes_t found = PSA_KEY_ATTRIBUTES_INIT;
	psa_status_t rc = psa_get_key_attributes(device_identity_id, &found);
	bool p256 = psa_get_key_type(&found) == PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1) &&
		    psa_get_key_bits(&found) == 256;

	psa_reset_key_attributes(&found);

	switch (rc) {
	case PSA_SUCCESS:
		if (!p256) {
			/* keep whatever is stored there; just refuse to use it */
			return PSA_ERROR_CORRUPTION_DETECTED;
		}
		*out = device_identity_id;
		return PSA_SUCCESS;
	case PSA_ERROR_DOES_NOT_EXIST:
	case PSA_ERROR_INVALID_HANDLE:
		return mint_identity(out);
	default:
		/* storage or library failure: never replace the identity blindly */
		return rc;
	}
}

static psa_status_t digest_text(struct attestation *att)
{
	psa_hash_operation_t op = PSA_HASH_OPERATION_INIT;
	psa_status_t rc = psa_hash_setup(&op, PSA_ALG_SHA_256);

	if (rc == PSA_SUCCESS) {
		rc = psa_hash_update(&op, (const uint8_t *)attest_text, sizeof(attest_text) - 1U);
	}
	if (rc == PSA_SUCCESS) {
		rc = psa_hash_finish(&op, att->digest, sizeof(att->digest), &att->digest_len);
	}
	if (rc != PSA_SUCCESS) {
		(void)psa_hash_abort(&op);
	}
	return rc;
}

int main(void)
{
	struct attestation att = { .key = PSA_KEY_ID_NULL };
	const char *stage;
	psa_status_t rc;

	stage = "crypto init";
	rc = psa_crypto_init();
	if (rc != PSA_SUCCESS) {
		goto failed;
	}

	stage = "identity key";
	rc = open_identity(&att.key);
	if (rc != PSA_SUCCESS) {
		goto failed;
	}

	stage = "sha-256 digest";
	rc = digest_text(&att);
	if (rc != PSA_SUCCESS) {
		goto failed;
	}

	stage = "ecdsa sign";
	rc = psa_sign_hash(att.key, attest_alg, att.digest, att.digest_len, att.sig, sizeof(att.sig),
			   &att.sig_len);
	if (rc != PSA_SUCCESS) {
		goto failed;
	}

	stage = "ecdsa verify";
	rc = psa_verify_hash(att.key, attest_alg, att.digest, att.digest_len, att.sig, att.sig_len);
	if (rc != PSA_SUCCESS) {
		goto failed;
	}

	printk("signature verified\n");
	return 0;

failed:
	printk("%s failed: status %d\n", stage, (int)rc);
	return 1;
}
