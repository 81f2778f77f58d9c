#include <zephyr/kernel.h>
#include <psa/crypto.h>

#define DEV_KEY (PSA_KEY_ID_USER_MIN + 0x10000)

static const char msg[] = "boot-attestation:fw=1.4.2";

int main(void)
{
	psa_key_attributes_t a = PSA_KEY_ATTRIBUTES_INIT;
	psa_key_id_t id = DEV_KEY;
	uint8_t sig[PSA_SIGNATURE_MAX_SIZE];
	size_t sig_len;
	psa_status_t st;

	if (psa_crypto_init() != PSA_SUCCESS) {
		printk("init failed\n");
		return 1;
	}

	st = psa_get_key_attributes(DEV_KEY, &a);
	psa_reset_key_attributes(&a);
	if (st != PSA_SUCCESS) {
		psa_set_key_id(&a, DEV_KEY);
		psa_set_key_lifetime(&a, PSA_KEY_LIFETIME_PERSISTENT);
		psa_set_key_type(&a, PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1));
		psa_set_key_bits(&a, 256);
		psa_set_key_usage_flags(&a, PSA_KEY_USAGE_SIGN_MESSAGE | PSA_KEY_USAGE_SIGN_HASH |
					    PSA_KEY_USAGE_VERIFY_HASH);
		psa_set_key_algorithm(&a, PSA_ALG_ECDSA(PSA_ALG_SHA_256));
		st = psa_generate_key(&a, &id);
		psa_reset_key_attributes(&a);
		if (st != PSA_SUCCESS) {
			printk("generate: %d\n", (int)st);
			return 1;
		}
	}

	uint8_t digest[32];
	size_t digest_len;

	st = psa_hash_compute(PSA_ALG_SHA_256, (const uint8_t *)msg, sizeof(msg) - 1, digest,
			      sizeof(digest), &digest_len);
	if (st != PSA_SUCCESS) {
		printk("hash: %d\n", (int)st);
		return 1;
	}
	st = psa_sign_hash(id, PSA_ALG_ECDSA(PSA_ALG_SHA_256), digest, digest_len, sig, sizeof(sig),
			   &sig_len);
	if (st != PSA_SUCCESS) {
		printk("sign: %d\n", (int)st);
		return 1;
	}
	st = psa_verify_hash(id, PSA_ALG_ECDSA(PSA_ALG_SHA_256), digest, digest_len, sig, sig_len);
	if (st != PSA_SUCCESS) {
		printk("verify: %d\n", (int)st);
		return 1;
	}
	printk("signature verified\n");
	return 0;
}
