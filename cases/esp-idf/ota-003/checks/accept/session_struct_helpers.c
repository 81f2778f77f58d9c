/*
 * Installs the image delivered by image_source into the inactive OTA slot.
 * The update state lives in one session struct; the caller owns the OTA
 * handle's lifetime and aborts it when streaming fails.
 */
#include <stddef.h>
#include <stdint.h>

#include "esp_log.h"
#include "esp_ota_ops.h"
#include "esp_system.h"
#include "image_source.h"

#define OTA_LOG_TAG "ota"
#define OTA_MAX_CHUNK 1024u

typedef struct {
	const esp_partition_t *slot;
	esp_ota_handle_t handle;
	size_t image_len;
	size_t copied;
	uint8_t chunk[OTA_MAX_CHUNK];
} ota_session_t;

/* Static so the 1 KiB chunk does not sit on the main task's stack. */
static ota_session_t g_session;

/* Pumps the source into the open handle, one chunk per iteration. */
static esp_err_t copy_source_to_slot(ota_session_t *sess)
{
	for (;;) {
		int got = image_source_read(sess->chunk, sizeof(sess->chunk));
		if (got == 0) {
			return ESP_OK;
		}
		if (got < 0) {
			ESP_LOGE(OTA_LOG_TAG, "source read error (%d) after %u bytes", got, (unsigned)sess->copied);
			return ESP_FAIL;
		}

		esp_err_t wr = esp_ota_write(sess->handle, sess->chunk, (size_t)got);
		if (wr != ESP_OK) {
			ESP_LOGE(OTA_LOG_TAG, "flash write at offset %u: %s", (unsigned)sess->copied, esp_err_to_name(wr));
			return wr;
		}
		sess->copied += (size_t)got;
	}
}

/* Picks the slot and opens an OTA handle that erases only image_len bytes. */
static esp_err_t start_session(ota_session_t *sess)
{
	sess->slot = esp_ota_get_next_update_partition(NULL);
	if (sess->slot == NULL) {
		ESP_LOGE(OTA_LOG_TAG, "there is no OTA slot to update");
		return ESP_ERR_NOT_FOUND;
	}

	sess->image_len = image_source_size();
	/* A size of 0 would make esp_ota_begin erase the whole slot. */
	if (sess->image_len == 0 || sess->image_len > sess->slot->size) {
		ESP_LOGE(OTA_LOG_TAG, "image of %u bytes does not fit slot %s", (unsigned)sess->image_len, sess->slot->label);
		return ESP_ERR_INVALID_SIZE;
	}
	sess->copied = 0;

	ESP_LOGI(OTA_LOG_TAG, "installing %u bytes into %s", (unsigned)sess->image_len, sess->slot->label);
	return esp_ota_begin(sess->slot, sess->image_len, &sess->handle);
}

void app_main(void)
{
	ota_session_t *sess = &g_session;
	esp_err_t rc;

	rc = start_session(sess);
	if (rc != ESP_OK) {
		ESP_LOGE(OTA_LOG_TAG, "cannot start the update: %s", esp_err_to_name(rc));
		return;
	}

	rc = copy_source_to_slot(sess);
	if (rc != ESP_OK) {
		/* Releases the handle; the running image stays the boot image. */
		esp_ota_abort(sess->handle);
		ESP_LOGE(OTA_LOG_TAG, "update abandoned, keeping the running firmware");
		return;
	}

	/* esp_ota_end frees the handle whether or not the image validates. */
	rc = esp_ota_end(sess->handle);
	if (rc != ESP_OK) {
		ESP_LOGE(OTA_LOG_TAG, "new image failed validation: %s", esp_err_to_name(rc));
		return;
	}

	rc = esp_ota_set_boot_partition(sess->slot);
	if (rc != ESP_OK) {
		ESP_LOGE(OTA_LOG_TAG, "could not select %s for boot: %s", sess->slot->label, esp_err_to_name(rc));
		return;
	}

	ESP_LOGI(OTA_LOG_TAG, "%u bytes installed, restarting into %s", (unsigned)sess->copied, sess->slot->label);
	esp_restart();
}
