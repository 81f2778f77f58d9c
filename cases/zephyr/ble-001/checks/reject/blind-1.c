/* defect: advertising is restarted directly from the disconnected callback, while the connection object is still held, so with BT_LE_ADV_CONN_FAST_1 (one-shot) bt_le_adv_start fails (-ENOMEM) and the device never becomes connectable again.
 * breaks: "After a central disconnects, the device must become connectable again."
 * must_fail: advertising_resumed_after_disconnect
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/sys/printk.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gatt.h>
#include <zephyr/bluetooth/uuid.h>

#define TEMP_SVC_UUID_VAL \
	BT_UUID_128_ENCODE(0x12345678, 0x1234, 0x5678, 0x1234, 0x56789abcdef0)
#define TEMP_CHR_UUID_VAL \
	BT_UUID_128_ENCODE(0x12345678, 0x1234, 0x5678, 0x1234, 0x56789abcdef1)

static const struct bt_uuid_128 temp_svc_uuid = BT_UUID_INIT_128(TEMP_SVC_UUID_VAL);
static const struct bt_uuid_128 temp_chr_uuid = BT_UUID_INIT_128(TEMP_CHR_UUID_VAL);

static atomic_t temp_centi = ATOMIC_INIT(2000);
static atomic_t notify_enabled;

static ssize_t read_temp(struct bt_conn *conn, const struct bt_gatt_attr *attr,
			 void *buf, uint16_t len, uint16_t offset)
{
	uint8_t value[2];

	sys_put_le16((uint16_t)(int16_t)atomic_get(&temp_centi), value);
	return bt_gatt_attr_read(conn, attr, buf, len, offset, value, sizeof(value));
}

static void temp_ccc_changed(const struct bt_gatt_attr *attr, uint16_t value)
{
	ARG_UNUSED(attr);
	atomic_set(&notify_enabled, value == BT_GATT_CCC_NOTIFY);
}

BT_GATT_SERVICE_DEFINE(temp_svc,
	BT_GATT_PRIMARY_SERVICE(&temp_svc_uuid),
	BT_GATT_CHARACTERISTIC(&temp_chr_uuid.uuid,
			       BT_GATT_CHRC_READ | BT_GATT_CHRC_NOTIFY,
			       BT_GATT_PERM_READ,
			       read_temp, NULL, NULL),
	BT_GATT_CCC(temp_ccc_changed, BT_GATT_PERM_READ | BT_GATT_PERM_WRITE),
);

static const struct bt_data ad[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, (BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR)),
	BT_DATA_BYTES(BT_DATA_UUID128_ALL, TEMP_SVC_UUID_VAL),
};

static const struct bt_data sd[] = {
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME,
		sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

static int advertising_start(void)
{
	int err = bt_le_adv_start(BT_LE_ADV_CONN_FAST_1, ad, ARRAY_SIZE(ad),
				  sd, ARRAY_SIZE(sd));
	if (err) {
		printk("Advertising failed to start (err %d)\n", err);
		return err;
	}

	printk("advertising started\n");
	return 0;
}

static void connected(struct bt_conn *conn, uint8_t err)
{
	ARG_UNUSED(conn);

	if (err) {
		printk("Connection failed (err 0x%02x)\n", err);
		return;
	}
	printk("Connected\n");
}

static void disconnected(struct bt_conn *conn, uint8_t reason)
{
	ARG_UNUSED(conn);

	printk("Disconnected (reason 0x%02x)\n", reason);
	atomic_clear(&notify_enabled);
	(void)advertising_start();
}

BT_CONN_CB_DEFINE(conn_callbacks) = {
	.connected = connected,
	.disconnected = disconnected,
};

int main(void)
{
	int err;
	int16_t temp = 2000;
	int16_t step = 20;

	err = bt_enable(NULL);
	if (err) {
		printk("Bluetooth init failed (err %d)\n", err);
		return err;
	}

	err = advertising_start();
	if (err) {
		return err;
	}

	for (;;) {
		k_sleep(K_SECONDS(1));

		temp += step;
		if (temp >= 3000 || temp <= 2000) {
			step = -step;
		}
		atomic_set(&temp_centi, temp);

		if (atomic_get(&notify_enabled)) {
			uint8_t value[2];

			sys_put_le16((uint16_t)temp, value);
			err = bt_gatt_notify(NULL, &temp_svc.attrs[2], value, sizeof(value));
			if (err && err != -ENOTCONN) {
				printk("Notify failed (err %d)\n", err);
			}
		}
	}

	return 0;
}
