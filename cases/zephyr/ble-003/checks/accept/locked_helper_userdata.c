/*
 * Device label over BLE: the label lives in one struct together with the
 * lock that guards it, and the GATT callbacks reach it through the
 * attribute's user_data rather than through a global name.
 */
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/gatt.h>
#include <zephyr/bluetooth/uuid.h>

#define NAME_TAG_LEN 16U

struct name_tag {
	struct k_spinlock guard;
	uint8_t bytes[NAME_TAG_LEN];
};

static struct name_tag device_tag = {
	.bytes = { 'z', 'e', 'p', 'h', 'y', 'r' },
};

/* Copies the tag under its lock; out must hold NAME_TAG_LEN bytes. */
static void name_tag_copy(struct name_tag *tag, uint8_t *out)
{
	K_SPINLOCK(&tag->guard) {
		memcpy(out, tag->bytes, NAME_TAG_LEN);
	}
}

static void name_tag_patch(struct name_tag *tag, uint16_t at, const void *src, uint16_t n)
{
	k_spinlock_key_t key = k_spin_lock(&tag->guard);

	memcpy(&tag->bytes[at], src, n);
	k_spin_unlock(&tag->guard, key);
}

static ssize_t tag_write_cb(struct bt_conn *peer, const struct bt_gatt_attr *chrc,
			    const void *data, uint16_t count, uint16_t at, uint8_t wflags)
{
	struct name_tag *tag = chrc->user_data;

	ARG_UNUSED(peer);

	if (at > NAME_TAG_LEN)
		return BT_GATT_ERR(BT_ATT_ERR_INVALID_OFFSET);

	if ((uint32_t)at + count > NAME_TAG_LEN)
		return BT_GATT_ERR(BT_ATT_ERR_INVALID_ATTRIBUTE_LEN);

	/* A queued prepare-write chunk is only validated here; it is applied
	 * later, when the execute request calls us again with its offset.
	 */
	if ((wflags & BT_GATT_WRITE_FLAG_PREPARE) != 0U)
		return 0;

	name_tag_patch(tag, at, data, count);
	return count;
}

static ssize_t tag_read_cb(struct bt_conn *peer, const struct bt_gatt_attr *chrc,
			   void *dst, uint16_t dst_len, uint16_t at)
{
	uint8_t snapshot[NAME_TAG_LEN];

	name_tag_copy(chrc->user_data, snapshot);
	return bt_gatt_attr_read(peer, chrc, dst, dst_len, at, snapshot, NAME_TAG_LEN);
}

#define TAG_SERVICE_UUID \
	BT_UUID_DECLARE_128(BT_UUID_128_ENCODE(0x3b9e51c0, 0x88a4, 0x4d07, 0xb1f2, 0x5e6a7c8d9e00))
#define TAG_VALUE_UUID \
	BT_UUID_DECLARE_128(BT_UUID_128_ENCODE(0x3b9e51c1, 0x88a4, 0x4d07, 0xb1f2, 0x5e6a7c8d9e00))

BT_GATT_SERVICE_DEFINE(name_tag_service,
	BT_GATT_PRIMARY_SERVICE(TAG_SERVICE_UUID),
	BT_GATT_CHARACTERISTIC(TAG_VALUE_UUID,
			       BT_GATT_CHRC_WRITE | BT_GATT_CHRC_READ,
			       BT_GATT_PERM_WRITE_ENCRYPT | BT_GATT_PERM_PREPARE_WRITE |
			       BT_GATT_PERM_READ,
			       tag_read_cb, tag_write_cb, &device_tag),
);

static int advertise_name(void)
{
	const char *gap_name = bt_get_name();
	const struct bt_data payload[] = {
		BT_DATA_BYTES(BT_DATA_FLAGS, BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR),
		BT_DATA(BT_DATA_NAME_COMPLETE, gap_name, strlen(gap_name)),
	};

	return bt_le_adv_start(BT_LE_ADV_CONN_FAST_2, payload, ARRAY_SIZE(payload), NULL, 0);
}

int main(void)
{
	char line[NAME_TAG_LEN + 1U];
	int rc = bt_enable(NULL);

	if (rc != 0) {
		printk("bt_enable failed: %d\n", rc);
		return rc;
	}

	rc = advertise_name();
	if (rc != 0) {
		printk("bt_le_adv_start failed: %d\n", rc);
		return rc;
	}

	printk("advertising started\n");

	for (;;) {
		name_tag_copy(&device_tag, (uint8_t *)line);
		line[NAME_TAG_LEN] = '\0';
		printk("label: %s\n", line);
		k_msleep(1000);
	}
}
