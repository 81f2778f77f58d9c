/* defect: the advertising helper is void and only logs a bt_le_adv_start failure, so main carries on into its loop and never returns the advertising error.
 * breaks: "If Bluetooth or advertising cannot be started, print the error and return it from `main`."
 * must_fail: advertising_start_checked
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
	int16_t value = (int16_t)sys_cpu_to_le16((uint16_t)atomic_get(&temp_centi));

	return bt_gatt_attr_read(conn, attr, buf, len, offset, &value, sizeof(value));
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

static void start_advertising(void)
{
	int err = bt_le_adv_start(BT_LE_ADV_CONN_FAST_1, ad, ARRAY_SIZE(ad),
				  sd, ARRAY_SIZE(sd));
	if (err) {
		printk("Advertising failed to start (err %d)\n", err);
		return;
	}
	printk("advertising started\n");
}

static void adv_work_handler(struct k_work *work)
{
	ARG_UNUSED(work);
	start_advertising();
}

static K_WORK_DEFINE(adv_work, adv_work_handler);

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

static int16_t simulate_step(int16_t t, int16_t *step)
{
	t += *step;
	if (t >= 3000) {
		t = 3000;
		*step = -*step;
	} else if (t <= 2000) {
		t = 2000;
		*step = -*step;
	}
	return t;
}

int main(void)
{
	int err;
	int16_t temp = 2000;
	int16_t step = 25;

	err = bt_enable(NULL);
	if (err) {
		printk("Bluetooth init failed (err %d)\n", err);
		return err;
	}

	start_advertising();

	for (;;) {
		k_sleep(K_SECONDS(1));

		temp = simulate_step(temp, &step);
		atomic_set(&temp_centi, temp);

		if (atomic_get(&notify_enabled)) {
			int16_t value = (int16_t)sys_cpu_to_le16((uint16_t)temp);

			err = bt_gatt_notify(NULL, &temp_svc.attrs[2], &value, sizeof(value));
			if (err && err != -ENOTCONN) {
				printk("Notify failed (err %d)\n", err);
			}
		}
	}

	return 0;
}
