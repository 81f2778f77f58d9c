#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gatt.h>
#include <zephyr/bluetooth/uuid.h>

#define TEMP_SVC_UUID_VAL BT_UUID_128_ENCODE(0x12345678, 0x1234, 0x5678, 0x1234, 0x56789abcdef0)
#define TEMP_CHR_UUID_VAL BT_UUID_128_ENCODE(0x12345678, 0x1234, 0x5678, 0x1234, 0x56789abcdef1)

static const struct bt_uuid_128 temp_svc_uuid = BT_UUID_INIT_128(TEMP_SVC_UUID_VAL);
static const struct bt_uuid_128 temp_chr_uuid = BT_UUID_INIT_128(TEMP_CHR_UUID_VAL);

static atomic_t temp_centi = ATOMIC_INIT(2000);
static atomic_t notify_enabled;

static const struct bt_data ad[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, (BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR)),
	BT_DATA_BYTES(BT_DATA_UUID128_ALL, TEMP_SVC_UUID_VAL),
};

static const struct bt_data sd[] = {
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME, sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

static ssize_t read_temp(struct bt_conn *conn, const struct bt_gatt_attr *attr, void *buf,
			 uint16_t len, uint16_t offset)
{
	uint16_t value = sys_cpu_to_le16((uint16_t)(int16_t)atomic_get(&temp_centi));

	return bt_gatt_attr_read(conn, attr, buf, len, offset, &value, sizeof(value));
}

static void temp_ccc_changed(const struct bt_gatt_attr *attr, uint16_t value)
{
	atomic_set(&notify_enabled, value == BT_GATT_CCC_NOTIFY);
}

BT_GATT_SERVICE_DEFINE(temp_svc,
	BT_GATT_PRIMARY_SERVICE(&temp_svc_uuid),
	BT_GATT_CHARACTERISTIC(&temp_chr_uuid.uuid, BT_GATT_CHRC_READ | BT_GATT_CHRC_NOTIFY,
			       BT_GATT_PERM_READ, read_temp, NULL, NULL),
	BT_GATT_CCC(temp_ccc_changed, BT_GATT_PERM_READ | BT_GATT_PERM_WRITE),
);

static int start_advertising(void)
{
	return bt_le_adv_start(BT_LE_ADV_CONN_FAST_1, ad, ARRAY_SIZE(ad), sd, ARRAY_SIZE(sd));
}

static void adv_restart_handler(struct k_work *work)
{
	int err = start_advertising();

	if (err && err != -EALREADY) {
		printk("advertising restart failed: %d\n", err);
	}
}

static K_WORK_DEFINE(adv_restart_work, adv_restart_handler);

static void on_recycled(void)
{
	k_work_submit(&adv_restart_work);
}

BT_CONN_CB_DEFINE(conn_callbacks) = {
	.recycled = on_recycled,
};

int main(void)
{
	int16_t temp = 2000;
	int err;

	err = bt_enable(NULL);
	if (err) {
		printk("bt_enable failed: %d\n", err);
		return err;
	}

	err = start_advertising();
	if (err) {
		printk("advertising failed: %d\n", err);
		return err;
	}
	printk("advertising started\n");

	for (;;) {
		k_sleep(K_SECONDS(1));

		temp = (temp >= 3000) ? 2000 : temp + 25;
		atomic_set(&temp_centi, temp);

		if (atomic_get(&notify_enabled)) {
			uint16_t value = sys_cpu_to_le16((uint16_t)temp);

			err = bt_gatt_notify(NULL, &temp_svc.attrs[1], &value, sizeof(value));
			if (err && err != -ENOTCONN) {
				printk("notify failed: %d\n", err);
			}
		}
	}
	return 0;
}
