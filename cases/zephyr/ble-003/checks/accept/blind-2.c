#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/spinlock.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gatt.h>
#include <zephyr/bluetooth/uuid.h>

#define LABEL_MAX 16U

struct device_label {
	struct k_spinlock lock;
	uint8_t value[LABEL_MAX];
};

static struct device_label dev_label = {
	.value = { 'N', 'o', ' ', 'l', 'a', 'b', 'e', 'l' },
};

#define BT_UUID_LABEL_SVC \
	BT_UUID_DECLARE_128(BT_UUID_128_ENCODE(0xa3c80000, 0x55e1, 0x4f0b, 0x8d27, 0x10f2e3d4c5b6))
#define BT_UUID_LABEL_CHR \
	BT_UUID_DECLARE_128(BT_UUID_128_ENCODE(0xa3c80001, 0x55e1, 0x4f0b, 0x8d27, 0x10f2e3d4c5b6))

static void label_snapshot(struct device_label *l, uint8_t out[LABEL_MAX])
{
	k_spinlock_key_t key = k_spin_lock(&l->lock);

	memcpy(out, l->value, LABEL_MAX);
	k_spin_unlock(&l->lock, key);
}

static ssize_t label_read(struct bt_conn *conn, const struct bt_gatt_attr *attr,
			  void *buf, uint16_t len, uint16_t offset)
{
	uint8_t copy[LABEL_MAX];

	label_snapshot(attr->user_data, copy);

	return bt_gatt_attr_read(conn, attr, buf, len, offset, copy, sizeof(copy));
}

static ssize_t label_write(struct bt_conn *conn, const struct bt_gatt_attr *attr,
			   const void *buf, uint16_t len, uint16_t offset,
			   uint8_t flags)
{
	struct device_label *l = attr->user_data;
	k_spinlock_key_t key;

	/* The attribute permission already demands encryption; be explicit. */
	if (bt_conn_get_security(conn) < BT_SECURITY_L2) {
		return BT_GATT_ERR(BT_ATT_ERR_INSUFFICIENT_ENCRYPTION);
	}

	if (offset > LABEL_MAX) {
		return BT_GATT_ERR(BT_ATT_ERR_INVALID_OFFSET);
	}
	if ((uint32_t)offset + len > LABEL_MAX) {
		return BT_GATT_ERR(BT_ATT_ERR_INVALID_ATTRIBUTE_LEN);
	}

	if ((flags & BT_GATT_WRITE_FLAG_PREPARE) != 0U) {
		/* Validation only; the queued chunk is written on execute. */
		return 0;
	}

	key = k_spin_lock(&l->lock);
	memcpy(l->value + offset, buf, len);
	k_spin_unlock(&l->lock, key);

	return (ssize_t)len;
}

BT_GATT_SERVICE_DEFINE(label_service,
	BT_GATT_PRIMARY_SERVICE(BT_UUID_LABEL_SVC),
	BT_GATT_CHARACTERISTIC(BT_UUID_LABEL_CHR,
			       BT_GATT_CHRC_READ | BT_GATT_CHRC_WRITE,
			       BT_GATT_PERM_READ | BT_GATT_PERM_WRITE_ENCRYPT |
			       BT_GATT_PERM_PREPARE_WRITE,
			       label_read, label_write, &dev_label),
	BT_GATT_CUD("Device label", BT_GATT_PERM_READ),
);

static const struct bt_data adv_data[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR),
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME,
		sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

int main(void)
{
	int err;

	err = bt_enable(NULL);
	if (err != 0) {
		printk("bt_enable failed: %d\n", err);
		return err;
	}

	err = bt_le_adv_start(BT_LE_ADV_PARAM(BT_LE_ADV_OPT_CONN,
					      BT_GAP_ADV_FAST_INT_MIN_2,
					      BT_GAP_ADV_FAST_INT_MAX_2, NULL),
			      adv_data, ARRAY_SIZE(adv_data), NULL, 0);
	if (err != 0) {
		printk("bt_le_adv_start failed: %d\n", err);
		return err;
	}

	printk("advertising started\n");

	for (;;) {
		uint8_t now[LABEL_MAX];

		label_snapshot(&dev_label, now);
		printk("label: %.*s\n", (int)strnlen((const char *)now, LABEL_MAX),
		       (const char *)now);

		k_msleep(1000);
	}

	return 0;
}
