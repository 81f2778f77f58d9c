/*
 * BLE peripheral exposing a 16-byte "label" characteristic.
 * Reading is open; writing (including long/prepared writes) requires
 * an encrypted link. The main thread prints the label every second.
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gatt.h>
#include <zephyr/bluetooth/uuid.h>

#define LABEL_SIZE 16

#define LABEL_SERVICE_UUID_VAL \
	BT_UUID_128_ENCODE(0x4c1f0001, 0x7d2e, 0x4a8b, 0x9c31, 0x5e6f7a8b9c0d)
#define LABEL_CHAR_UUID_VAL \
	BT_UUID_128_ENCODE(0x4c1f0002, 0x7d2e, 0x4a8b, 0x9c31, 0x5e6f7a8b9c0d)

static const struct bt_uuid_128 label_service_uuid =
	BT_UUID_INIT_128(LABEL_SERVICE_UUID_VAL);
static const struct bt_uuid_128 label_char_uuid =
	BT_UUID_INIT_128(LABEL_CHAR_UUID_VAL);

/* Shared between the Bluetooth stack (writes) and the main thread. */
static uint8_t label[LABEL_SIZE] = "EmbedEval";
K_MUTEX_DEFINE(label_lock);

static ssize_t read_label(struct bt_conn *conn, const struct bt_gatt_attr *attr,
			  void *buf, uint16_t len, uint16_t offset)
{
	uint8_t snapshot[LABEL_SIZE];

	k_mutex_lock(&label_lock, K_FOREVER);
	memcpy(snapshot, label, sizeof(snapshot));
	k_mutex_unlock(&label_lock);

	return bt_gatt_attr_read(conn, attr, buf, len, offset, snapshot,
				 sizeof(snapshot));
}

static ssize_t write_label(struct bt_conn *conn, const struct bt_gatt_attr *attr,
			   const void *buf, uint16_t len, uint16_t offset,
			   uint8_t flags)
{
	ARG_UNUSED(conn);
	ARG_UNUSED(attr);

	if (offset > LABEL_SIZE) {
		return BT_GATT_ERR(BT_ATT_ERR_INVALID_OFFSET);
	}

	if (len > LABEL_SIZE - offset) {
		return BT_GATT_ERR(BT_ATT_ERR_INVALID_ATTRIBUTE_LEN);
	}

	/* Prepare Write: only validate; the data is applied on execute. */
	if (flags & BT_GATT_WRITE_FLAG_PREPARE) {
		return 0;
	}

	k_mutex_lock(&label_lock, K_FOREVER);
	memcpy(&label[offset], buf, len);
	k_mutex_unlock(&label_lock);

	return len;
}

BT_GATT_SERVICE_DEFINE(label_svc,
	BT_GATT_PRIMARY_SERVICE(&label_service_uuid),
	BT_GATT_CHARACTERISTIC(&label_char_uuid.uuid,
			       BT_GATT_CHRC_READ | BT_GATT_CHRC_WRITE,
			       BT_GATT_PERM_READ | BT_GATT_PERM_WRITE_ENCRYPT |
			       BT_GATT_PERM_PREPARE_WRITE,
			       read_label, write_label, NULL),
);

static const struct bt_data ad[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, (BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR)),
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME,
		sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

static const struct bt_data sd[] = {
	BT_DATA_BYTES(BT_DATA_UUID128_ALL, LABEL_SERVICE_UUID_VAL),
};

int main(void)
{
	char text[LABEL_SIZE + 1];
	int err;

	err = bt_enable(NULL);
	if (err) {
		printk("Bluetooth init failed (err %d)\n", err);
		return err;
	}

	err = bt_le_adv_start(BT_LE_ADV_CONN_FAST_1, ad, ARRAY_SIZE(ad),
			      sd, ARRAY_SIZE(sd));
	if (err) {
		printk("Advertising failed to start (err %d)\n", err);
		return err;
	}

	printk("advertising started\n");

	while (1) {
		k_mutex_lock(&label_lock, K_FOREVER);
		memcpy(text, label, LABEL_SIZE);
		k_mutex_unlock(&label_lock);

		text[LABEL_SIZE] = '\0';
		printk("label: %s\n", text);

		k_sleep(K_SECONDS(1));
	}

	return 0;
}
