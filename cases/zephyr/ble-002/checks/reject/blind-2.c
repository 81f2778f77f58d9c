/* defect: When the connection attempt completes with an error (e.g. connection-create timeout) the reference is released but scanning is never restarted, so the sensor is never found again.
 * breaks: "If the connection attempt fails, or after the sensor disconnects, go back to scanning so the sensor is found again."
 * must_fail: scan_resumed_after_failed_connection
 */
/*
 * BLE central: scan for the peripheral advertising the complete or
 * shortened name "EmbedEval Sensor", connect to it, and go back to
 * scanning whenever the connection attempt fails or the link drops.
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gap.h>
#include <zephyr/bluetooth/hci.h>

#define TARGET_NAME     "EmbedEval Sensor"
#define TARGET_NAME_LEN (sizeof(TARGET_NAME) - 1)

/* Only touched from the Bluetooth host's callback context. */
static struct bt_conn *default_conn;

static int start_scan(void);

static bool name_matches(struct bt_data *data, void *user_data)
{
	bool *found = user_data;

	switch (data->type) {
	case BT_DATA_NAME_COMPLETE:
	case BT_DATA_NAME_SHORTENED:
		if (data->data_len == TARGET_NAME_LEN &&
		    memcmp(data->data, TARGET_NAME, TARGET_NAME_LEN) == 0) {
			*found = true;
			return false; /* stop parsing */
		}
		return true;
	default:
		return true; /* keep looking */
	}
}

static void device_found(const bt_addr_le_t *addr, int8_t rssi, uint8_t type,
			 struct net_buf_simple *ad)
{
	char addr_str[BT_ADDR_LE_STR_LEN];
	bool found = false;
	int err;

	if (default_conn != NULL) {
		return;
	}

	/* Only connectable advertising events. */
	if (type != BT_GAP_ADV_TYPE_ADV_IND &&
	    type != BT_GAP_ADV_TYPE_ADV_DIRECT_IND) {
		return;
	}

	bt_data_parse(ad, name_matches, &found);
	if (!found) {
		return;
	}

	bt_addr_le_to_str(addr, addr_str, sizeof(addr_str));
	printk("found %s at %s (RSSI %d)\n", TARGET_NAME, addr_str, rssi);

	err = bt_le_scan_stop();
	if (err) {
		printk("stop scanning failed (err %d)\n", err);
		return;
	}

	err = bt_conn_le_create(addr, BT_CONN_LE_CREATE_CONN,
				BT_LE_CONN_PARAM_DEFAULT, &default_conn);
	if (err) {
		printk("create connection failed (err %d)\n", err);
		default_conn = NULL;
		(void)start_scan();
	}
}

static int start_scan(void)
{
	int err;

	err = bt_le_scan_start(BT_LE_SCAN_PASSIVE, device_found);
	if (err) {
		printk("scanning failed to start (err %d)\n", err);
		return err;
	}

	printk("scanning\n");
	return 0;
}

static void connected(struct bt_conn *conn, uint8_t err)
{
	if (conn != default_conn) {
		return;
	}

	if (err) {
		printk("connection failed (err 0x%02x)\n", err);
		bt_conn_unref(default_conn);
		default_conn = NULL;
		return;
	}

	printk("connected\n");
}

static void disconnected(struct bt_conn *conn, uint8_t reason)
{
	if (conn != default_conn) {
		return;
	}

	printk("disconnected (reason 0x%02x)\n", reason);

	bt_conn_unref(default_conn);
	default_conn = NULL;

	(void)start_scan();
}

BT_CONN_CB_DEFINE(conn_callbacks) = {
	.connected = connected,
	.disconnected = disconnected,
};

int main(void)
{
	int err;

	err = bt_enable(NULL);
	if (err) {
		printk("Bluetooth init failed (err %d)\n", err);
		return err;
	}

	err = start_scan();
	if (err) {
		return err;
	}

	return 0;
}
