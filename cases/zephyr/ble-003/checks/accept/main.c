#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gatt.h>
#include <zephyr/bluetooth/uuid.h>

#define LABEL_SIZE 16

#define CFG_SVC_UUID BT_UUID_128_ENCODE(0x7d2a0000, 0x4f1b, 0x4c52, 0x9a3e, 0x1c0ffee01000)

static struct bt_uuid_128 cfg_svc_uuid = BT_UUID_INIT_128(CFG_SVC_UUID);
static struct bt_uuid_128 label_uuid =
	BT_UUID_INIT_128(BT_UUID_128_ENCODE(0x7d2a0001, 0x4f1b, 0x4c52, 0x9a3e, 0x1c0ffee01000));

static uint8_t label[LABEL_SIZE] = "embedeval";
static K_MUTEX_DEFINE(label_lock);

static void label_snapshot(uint8_t out[LABEL_SIZE])
{
	(void)k_mutex_lock(&label_lock, K_FOREVER);
	memcpy(out, label, LABEL_SIZE);
	k_mutex_unlock(&label_lock);
}

static ssize_t read_label(struct bt_conn *conn, const struct bt_gatt_attr *attr, void *buf,
			  uint16_t len, uint16_t offset)
{
	uint8_t copy[LABEL_SIZE];

	label_snapshot(copy);
	return bt_gatt_attr_read(conn, attr, buf, len, offset, copy, sizeof(copy));
}

static ssize_t write_label(struct bt_conn *conn, const struct bt_gatt_attr *attr,
			   const void *buf, uint16_t len, uint16_t offset, uint8_t flags)
{
	if (offset > LABEL_SIZE) {
		return BT_GATT_ERR(BT_ATT_ERR_INVALID_OFFSET);
	}
	if ((size_t)offset + len > LABEL_SIZE) {
		return BT_GATT_ERR(BT_ATT_ERR_INVALID_ATTRIBUTE_LEN);
	}
	if (flags & BT_GATT_WRITE_FLAG_PREPARE) {
		return 0;
	}

	(void)k_mutex_lock(&label_lock, K_FOREVER);
	memcpy(&label[offset], buf, len);
	k_mutex_unlock(&label_lock);
	return (ssize_t)len;
}

BT_GATT_SERVICE_DEFINE(cfg_svc,
	BT_GATT_PRIMARY_SERVICE(&cfg_svc_uuid),
	BT_GATT_CHARACTERISTIC(&label_uuid.uuid, BT_GATT_CHRC_READ | BT_GATT_CHRC_WRITE,
			       BT_GATT_PERM_READ | BT_GATT_PERM_WRITE_AUTHEN,
			       read_label, write_label, NULL),
);

static const struct bt_data ad[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, (BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR)),
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME, sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

int main(void)
{
	uint8_t copy[LABEL_SIZE + 1];
	int err;

	err = bt_enable(NULL);
	if (err) {
		printk("Bluetooth init failed (err %d)\n", err);
		return err;
	}

	err = bt_le_adv_start(BT_LE_ADV_CONN_FAST_1, ad, ARRAY_SIZE(ad), NULL, 0);
	if (err) {
		printk("Advertising failed (err %d)\n", err);
		return err;
	}
	printk("advertising started\n");

	while (1) {
		label_snapshot(copy);
		copy[LABEL_SIZE] = '\0';
		printk("label: %s\n", (char *)copy);
		k_sleep(K_SECONDS(1));
	}
	return 0;
}
