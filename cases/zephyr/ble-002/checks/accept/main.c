#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gap.h>

#define TARGET_NAME "EmbedEval Sensor"

static struct bt_conn *default_conn;

static int start_scan(void);

static bool match_name(struct bt_data *data, void *user_data)
{
	bool *found = user_data;

	if (data->type != BT_DATA_NAME_COMPLETE && data->type != BT_DATA_NAME_SHORTENED) {
		return true;
	}
	*found = data->data_len == strlen(TARGET_NAME) &&
		 memcmp(data->data, TARGET_NAME, data->data_len) == 0;
	return false;
}

static void device_found(const bt_addr_le_t *addr, int8_t rssi, uint8_t type,
			 struct net_buf_simple *ad)
{
	bool found = false;
	int err;

	if (default_conn) {
		return;
	}
	if (type != BT_GAP_ADV_TYPE_ADV_IND && type != BT_GAP_ADV_TYPE_ADV_DIRECT_IND) {
		return;
	}

	bt_data_parse(ad, match_name, &found);
	if (!found) {
		return;
	}

	err = bt_le_scan_stop();
	if (err) {
		printk("scan stop failed: %d\n", err);
		return;
	}

	err = bt_conn_le_create(addr, BT_CONN_LE_CREATE_CONN, BT_LE_CONN_PARAM_DEFAULT,
				&default_conn);
	if (err) {
		printk("create connection failed: %d\n", err);
		default_conn = NULL;
		(void)start_scan();
		return;
	}
	printk("connecting\n");
}

static int start_scan(void)
{
	int err;

	err = bt_le_scan_start(BT_LE_SCAN_ACTIVE, device_found);
	if (err) {
		printk("scan start failed: %d\n", err);
		return err;
	}
	printk("scanning\n");
	return 0;
}

static void connected(struct bt_conn *conn, uint8_t err)
{
	if (err) {
		printk("connection failed: 0x%02x\n", err);
		bt_conn_unref(default_conn);
		default_conn = NULL;
		(void)start_scan();
		return;
	}
	if (conn != default_conn) {
		return;
	}
	printk("connected\n");
}

static void disconnected(struct bt_conn *conn, uint8_t reason)
{
	if (conn != default_conn) {
		return;
	}
	printk("disconnected: 0x%02x\n", reason);
	bt_conn_unref(default_conn);
	default_conn = NULL;
	(void)start_scan();
}

static struct bt_conn_cb conn_callbacks = {
	.connected = connected,
	.disconnected = disconnected,
};

int main(void)
{
	int err;

	err = bt_enable(NULL);
	if (err) {
		printk("bt_enable failed: %d\n", err);
		return err;
	}
	bt_conn_cb_register(&conn_callbacks);

	return start_scan();
}
