/*
 * Telemetry record sealed with AES-128-GCM through the PSA Crypto
 * multi-part AEAD interface, then opened again and checked.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#include <psa/crypto.h>
#include <mbedtls/platform_util.h>

#define AES_KEY_BYTES 16

static const char record[] = "temp=21.50;hum=40";
static const char assoc[] = "dev-7";

#define MSG_LEN   (sizeof(record) - 1)
#define AAD_LEN   (sizeof(assoc) - 1)

/* Every buffer size comes from the PSA size macros */
#define NONCE_BUF  PSA_AEAD_NONCE_LENGTH(PSA_KEY_TYPE_AES, PSA_ALG_GCM)
#define TAG_BUF    PSA_AEAD_TAG_MAX_SIZE /* GCM default tag: 16 bytes */
#define CT_BUF     (PSA_AEAD_UPDATE_OUTPUT_SIZE(PSA_KEY_TYPE_AES, PSA_ALG_GCM, MSG_LEN) + \
		    PSA_AEAD_FINISH_OUTPUT_SIZE(PSA_KEY_TYPE_AES, PSA_ALG_GCM))
#define PT_BUF     (PSA_AEAD_UPDATE_OUTPUT_SIZE(PSA_KEY_TYPE_AES, PSA_ALG_GCM, CT_BUF) + \
		    PSA_AEAD_VERIFY_OUTPUT_SIZE(PSA_KEY_TYPE_AES, PSA_ALG_GCM))

static int fail(const char *step, psa_status_t status)
{
	printk("%s failed: %d\n", step, (int)status);
	return -1;
}

/*
 * Import the provisioned key. The raw bytes only live in this stack frame
 * and are wiped before it returns, whatever the import result.
 */
static psa_status_t import_provisioned_key(psa_key_id_t *key)
{
	psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
	uint8_t raw[AES_KEY_BYTES];
	psa_status_t status;

	for (size_t i = 0; i < sizeof(raw); i++) {
		raw[i] = (uint8_t)i; /* test key 00 01 .. 0f */
	}

	psa_set_key_type(&attr, PSA_KEY_TYPE_AES);
	psa_set_key_bits(&attr, 8 * AES_KEY_BYTES);
	psa_set_key_algorithm(&attr, PSA_ALG_GCM);
	psa_set_key_usage_flags(&attr, PSA_KEY_USAGE_ENCRYPT | PSA_KEY_USAGE_DECRYPT);
	/* default lifetime is volatile; stated explicitly for clarity */
	psa_set_key_lifetime(&attr, PSA_KEY_LIFETIME_VOLATILE);

	status = psa_import_key(&attr, raw, sizeof(raw), key);
	mbedtls_platform_zeroize(raw, sizeof(raw));
	psa_reset_key_attributes(&attr);

	return status;
}

static int seal(psa_key_id_t key, uint8_t *nonce, size_t *nonce_len,
		uint8_t *ct, size_t *ct_len, uint8_t *tag, size_t *tag_len)
{
	psa_aead_operation_t op = PSA_AEAD_OPERATION_INIT;
	psa_status_t status;
	size_t upd = 0;
	size_t fin = 0;

	status = psa_aead_encrypt_setup(&op, key, PSA_ALG_GCM);
	if (status != PSA_SUCCESS) {
		return fail("psa_aead_encrypt_setup", status);
	}

	/* Fresh random 96-bit nonce from the library's DRBG */
	status = psa_aead_generate_nonce(&op, nonce, NONCE_BUF, nonce_len);
	if (status != PSA_SUCCESS) {
		psa_aead_abort(&op);
		return fail("psa_aead_generate_nonce", status);
	}

	status = psa_aead_update_ad(&op, (const uint8_t *)assoc, AAD_LEN);
	if (status != PSA_SUCCESS) {
		psa_aead_abort(&op);
		return fail("psa_aead_update_ad", status);
	}

	status = psa_aead_update(&op, (const uint8_t *)record, MSG_LEN,
				 ct, CT_BUF, &upd);
	if (status != PSA_SUCCESS) {
		psa_aead_abort(&op);
		return fail("psa_aead_update", status);
	}

	status = psa_aead_finish(&op, ct + upd, CT_BUF - upd, &fin,
				 tag, TAG_BUF, tag_len);
	if (status != PSA_SUCCESS) {
		psa_aead_abort(&op);
		return fail("psa_aead_finish", status);
	}

	*ct_len = upd + fin;
	return 0;
}

static int open_and_check(psa_key_id_t key, const uint8_t *nonce, size_t nonce_len,
			  const uint8_t *ct, size_t ct_len,
			  const uint8_t *tag, size_t tag_len)
{
	psa_aead_operation_t op = PSA_AEAD_OPERATION_INIT;
	uint8_t pt[PT_BUF];
	psa_status_t status;
	size_t upd = 0;
	size_t fin = 0;

	status = psa_aead_decrypt_setup(&op, key, PSA_ALG_GCM);
	if (status != PSA_SUCCESS) {
		return fail("psa_aead_decrypt_setup", status);
	}

	status = psa_aead_set_nonce(&op, nonce, nonce_len);
	if (status != PSA_SUCCESS) {
		psa_aead_abort(&op);
		return fail("psa_aead_set_nonce", status);
	}

	status = psa_aead_update_ad(&op, (const uint8_t *)assoc, AAD_LEN);
	if (status != PSA_SUCCESS) {
		psa_aead_abort(&op);
		return fail("psa_aead_update_ad", status);
	}

	status = psa_aead_update(&op, ct, ct_len, pt, sizeof(pt), &upd);
	if (status != PSA_SUCCESS) {
		psa_aead_abort(&op);
		return fail("psa_aead_update", status);
	}

	status = psa_aead_verify(&op, pt + upd, sizeof(pt) - upd, &fin, tag, tag_len);
	if (status != PSA_SUCCESS) {
		psa_aead_abort(&op);
		return fail("psa_aead_verify", status);
	}

	if ((upd + fin) != MSG_LEN || memcmp(pt, record, MSG_LEN) != 0) {
		return fail("compare", PSA_ERROR_CORRUPTION_DETECTED);
	}

	return 0;
}

int main(void)
{
	psa_key_id_t key = PSA_KEY_ID_NULL;
	psa_status_t status;
	uint8_t nonce[NONCE_BUF];
	uint8_t ct[CT_BUF];
	uint8_t tag[TAG_BUF];
	size_t nonce_len = 0;
	size_t ct_len = 0;
	size_t tag_len = 0;
	int err;

	status = psa_crypto_init();
	if (status != PSA_SUCCESS) {
		fail("psa_crypto_init", status);
		return 1;
	}

	status = import_provisioned_key(&key);
	if (status != PSA_SUCCESS) {
		fail("psa_import_key", status);
		return 1;
	}

	err = seal(key, nonce, &nonce_len, ct, &ct_len, tag, &tag_len);
	if (err == 0) {
		err = open_and_check(key, nonce, nonce_len, ct, ct_len, tag, tag_len);
	}

	/* Single exit for the key: destroyed whatever happened above */
	status = psa_destroy_key(key);
	if (status != PSA_SUCCESS) {
		fail("psa_destroy_key", status);
		err = -1;
	}

	if (err != 0) {
		return 1;
	}

	printk("gcm roundtrip ok\n");
	return 0;
}
