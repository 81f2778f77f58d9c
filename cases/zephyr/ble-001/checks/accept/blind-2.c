/*
 * BLE temperature peripheral (Zephyr 4.1.0, nrf52840dk/nrf52840).
 *
 * Custom service 12345678-1234-5678-1234-56789abcdef0 with one read/notify
 * characteristic ...def1 carrying the temperature in 0.01 degC as a
 * little-endian int16_t. The main thread owns the simulation, the
 * notifications and (re)starting the connectable advertising.
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

/* Little-endian wire value, updated by main, read from the BT RX thread. */
static int16_t temp_le;
static K_MUTEX_DEFINE(state_lock);
static struct bt_conn *current_conn;   /* protected by state_lock */

static atomic_t adv_pending;            /* advertising must be (re)started */

static ssize_t temp_read(struct bt_conn *conn, const struct bt_gatt_attr *attr,
			 void *buf, uint16_t len, uint16_t offset)
{
	int16_t value;

	k_mutex_lock(&state_lock, K_FOREVER);
	value = temp_le;
	k_mutex_unlock(&state_lock);

	return bt_gatt_attr_read(conn, attr, buf, len, offset, &value, sizeof(value));
}

static void temp_ccc_cfg_changed(const struct bt_gatt_attr *attr, uint16_t value)
{
	ARG_UNUSED(attr);
	printk("CCC changed: 0x%04x\n", value);
}

BT_GATT_SERVICE_DEFINE(temp_service,
	BT_GATT_PRIMARY_SERVICE(BT_UUID_TEMP_SERVICE),
	BT_GATT_CHARACTERISTIC(BT_UUID_TEMP_VALUE,
			       BT_GATT_CHRC_READ | BT_GATT_CHRC_NOTIFY,
			       BT_GATT_PERM_READ, temp_read, NULL, NULL),
	BT_GATT_CCC(temp_ccc_cfg_changed, BT_GATT_PERM_READ | BT_GATT_PERM_WRITE),
);

/* Characteristic declaration; the stack resolves the value and CCC from it. */
#define TEMP_CHRC_ATTR (&temp_service.attrs[1])

static const struct bt_data ad[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, (BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR)),
	BT_DATA_BYTES(BT_DATA_UUID128_ALL, BT_UUID_TEMP_SERVICE_VAL),
};

static const struct bt_data sd[] = {
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME,
		sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

static const struct bt_le_adv_param adv_param =
	BT_LE_ADV_PARAM_INIT(BT_LE_ADV_OPT_CONN,
			     BT_GAP_ADV_FAST_INT_MIN_2,
			     BT_GAP_ADV_FAST_INT_MAX_2,
			     NULL);

static void on_connected(struct bt_conn *conn, uint8_t err)
{
	if (err) {
		printk("Connection failed (err 0x%02x)\n", err);
		/* The advertiser stopped; try again from the main loop. */
		atomic_set(&adv_pending, 1);
		return;
	}

	printk("Connected\n");
	k_mutex_lock(&state_lock, K_FOREVER);
	if (current_conn == NULL) {
		current_conn = bt_conn_ref(conn);
	}
	k_mutex_unlock(&state_lock);
}

static void on_disconnected(struct bt_conn *conn, uint8_t reason)
{
	printk("Disconnected (reason 0x%02x)\n", reason);

	k_mutex_lock(&state_lock, K_FOREVER);
	if (current_conn == conn) {
		bt_conn_unref(current_conn);
		current_conn = NULL;
	}
	k_mutex_unlock(&state_lock);
}

static void on_recycled(void)
{
	/* Connection object freed: a new connectable advertiser can start. */
	atomic_set(&adv_pending, 1);
}

BT_CONN_CB_DEFINE(conn_cbs) = {
	.connected = on_connected,
	.disconnected = on_disconnected,
	.recycled = on_recycled,
};

static int16_t next_temperature(void)
{
	/* Triangle ramp 20.00 .. 30.00 degC in 0.10 degC steps. */
	static int16_t t = 2000;
	static int16_t dir = 10;

	t += dir;
	if (t >= 3000 || t <= 2000) {
		dir = -dir;
	}
	return t;
}

int main(void)
{
	int err;

	err = bt_enable(NULL);
	if (err) {
		printk("bt_enable failed (err %d)\n", err);
		return err;
	}

	temp_le = (int16_t)sys_cpu_to_le16(2000);

	err = bt_le_adv_start(&adv_param, ad, ARRAY_SIZE(ad), sd, ARRAY_SIZE(sd));
	if (err) {
		printk("bt_le_adv_start failed (err %d)\n", err);
		return err;
	}
	printk("advertising started\n");

	for (;;) {
		k_sleep(K_MSEC(1000));

		int16_t value = (int16_t)sys_cpu_to_le16((uint16_t)next_temperature());
		struct bt_conn *conn = NULL;

		k_mutex_lock(&state_lock, K_FOREVER);
		temp_le = value;
		if (current_conn != NULL) {
			conn = bt_conn_ref(current_conn);
		}
		k_mutex_unlock(&state_lock);

		if (conn != NULL) {
			if (bt_gatt_is_subscribed(conn, TEMP_CHRC_ATTR, BT_GATT_CCC_NOTIFY)) {
				err = bt_gatt_notify(conn, TEMP_CHRC_ATTR, &value, sizeof(value));
				if (err) {
					printk("notify failed (err %d)\n", err);
				}
			}
			bt_conn_unref(conn);
		}

		if (atomic_cas(&adv_pending, 1, 0)) {
			err = bt_le_adv_start(&adv_param, ad, ARRAY_SIZE(ad),
					      sd, ARRAY_SIZE(sd));
			if (err == 0 || err == -EALREADY) {
				printk("advertising started\n");
			} else {
				printk("advertising restart failed (err %d)\n", err);
				atomic_set(&adv_pending, 1);
			}
		}
	}

	return 0;
}
