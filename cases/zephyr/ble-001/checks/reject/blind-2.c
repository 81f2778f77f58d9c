/* defect: the temperature is serialised with sys_put_be16 (big-endian) for both the read and the notification instead of little-endian.
 * breaks: "The characteristic value is the temperature in hundredths of a degree Celsius as a little-endian `int16_t`."
 * must_fail: value_little_endian
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

#define BT_UUID_TEMP_SERVICE_VAL \
	BT_UUID_128_ENCODE(0x12345678, 0x1234, 0x5678, 0x1234, 0x56789abcdef0)
#define BT_UUID_TEMP_VALUE_VAL \
	BT_UUID_128_ENCODE(0x12345678, 0x1234, 0x5678, 0x1234, 0x56789abcdef1)

#define BT_UUID_TEMP_SERVICE BT_UUID_DECLARE_128(BT_UUID_TEMP_SERVICE_VAL)
#define BT_UUID_TEMP_VALUE   BT_UUID_DECLARE_128(BT_UUID_TEMP_VALUE_VAL)

static atomic_t temperature = ATOMIC_INIT(2000);   /* 0.01 degC */
static atomic_t notify_on;

static void encode_temp(int16_t t, uint8_t out[2])
{
	sys_put_be16((uint16_t)t, out);
}

static ssize_t temp_read(struct bt_conn *conn, const struct bt_gatt_attr *attr,
			 void *buf, uint16_t len, uint16_t offset)
{
	uint8_t value[2];

	encode_temp((int16_t)atomic_get(&temperature), value);
	return bt_gatt_attr_read(conn, attr, buf, len, offset, value, sizeof(value));
}

static void temp_ccc_cfg_changed(const struct bt_gatt_attr *attr, uint16_t value)
{
	ARG_UNUSED(attr);
	atomic_set(&notify_on, (value & BT_GATT_CCC_NOTIFY) != 0);
}

BT_GATT_SERVICE_DEFINE(temp_service,
	BT_GATT_PRIMARY_SERVICE(BT_UUID_TEMP_SERVICE),
	BT_GATT_CHARACTERISTIC(BT_UUID_TEMP_VALUE,
			       BT_GATT_CHRC_READ | BT_GATT_CHRC_NOTIFY,
			       BT_GATT_PERM_READ, temp_read, NULL, NULL),
	BT_GATT_CCC(temp_ccc_cfg_changed, BT_GATT_PERM_READ | BT_GATT_PERM_WRITE),
);

static const struct bt_data ad[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, (BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR)),
	BT_DATA_BYTES(BT_DATA_UUID128_ALL, BT_UUID_TEMP_SERVICE_VAL),
};

static const struct bt_data sd[] = {
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME,
		sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

static void adv_work_handler(struct k_work *work)
{
	ARG_UNUSED(work);

	int err = bt_le_adv_start(BT_LE_ADV_CONN_FAST_2, ad, ARRAY_SIZE(ad),
				  sd, ARRAY_SIZE(sd));
	if (err) {
		printk("Advertising restart failed (err %d)\n", err);
		return;
	}
	printk("advertising started\n");
}

static K_WORK_DEFINE(adv_work, adv_work_handler);

static void connected(struct bt_conn *conn, uint8_t err)
{
	ARG_UNUSED(conn);
	if (err) {
		printk("Connection failed (err 0x%02x)\n", err);
	} else {
		printk("Connected\n");
	}
}

static void disconnected(struct bt_conn *conn, uint8_t reason)
{
	ARG_UNUSED(conn);
	printk("Disconnected (reason 0x%02x)\n", reason);
}

static void recycled(void)
{
	k_work_submit(&adv_work);
}

BT_CONN_CB_DEFINE(conn_callbacks) = {
	.connected = connected,
	.disconnected = disconnected,
	.recycled = recycled,
};

int main(void)
{
	int err;
	int16_t t = 2000;
	int16_t dir = 10;

	err = bt_enable(NULL);
	if (err) {
		printk("Bluetooth init failed (err %d)\n", err);
		return err;
	}

	err = bt_le_adv_start(BT_LE_ADV_CONN_FAST_2, ad, ARRAY_SIZE(ad),
			      sd, ARRAY_SIZE(sd));
	if (err) {
		printk("Advertising failed to start (err %d)\n", err);
		return err;
	}
	printk("advertising started\n");

	while (true) {
		k_sleep(K_SECONDS(1));

		t += dir;
		if (t >= 3000 || t <= 2000) {
			dir = -dir;
		}
		atomic_set(&temperature, t);

		if (atomic_get(&notify_on)) {
			uint8_t value[2];

			encode_temp(t, value);
			err = bt_gatt_notify(NULL, &temp_service.attrs[1], value, sizeof(value));
			if (err && err != -ENOTCONN) {
				printk("Notify failed (err %d)\n", err);
			}
		}
	}

	return 0;
}
