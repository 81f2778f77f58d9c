#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gap.h>

static const char sensor_name[] = "EmbedEval Sensor";

static const struct bt_le_scan_param scan_param = {
	.type = BT_LE_SCAN_TYPE_PASSIVE,
	.options = BT_LE_SCAN_OPT_NONE,
	.interval = BT_GAP_SCAN_FAST_INTERVAL,
	.window = BT_GAP_SCAN_FAST_WINDOW,
};

/* Reference held while a connection to the sensor exists or is pending. */
static struct bt_conn *sensor_conn;

static void rescan_handler(struct k_work *work);
static K_WORK_DELAYABLE_DEFINE(rescan_work, rescan_handler);

static int scan_on(void)
{
	int err = bt_le_scan_start(&scan_param, NULL);

	if (err == -EALREADY) {
		return 0;
	}
	if (err) {
		return err;
	}

	printk("scanning\n");
	return 0;
}

static void rescan_handler(struct k_work *work)
{
	int err = scan_on();

	if (err) {
		printk("restart scanning failed (err %d), retrying\n", err);
		k_work_reschedule(k_work_delayable_from_work(work), K_MSEC(500));
	}
}

static void schedule_rescan(void)
{
	k_work_reschedule(&rescan_work, K_NO_WAIT);
}

struct name_search {
	bool match;
};

static bool ad_entry(struct bt_data *data, void *user_data)
{
	struct name_search *search = user_data;

	if (data->type != BT_DATA_NAME_COMPLETE &&
	    data->type != BT_DATA_NAME_SHORTENED) {
		return true;
	}

	if (data->data_len == strlen(sensor_name) &&
	    memcmp(data->data, sensor_name, data->data_len) == 0) {
		search->match = true;
		return false; /* done */
	}

	return true; /* a different name: keep looking */
}

static void scan_recv(const struct bt_le_scan_recv_info *info,
		      struct net_buf_simple *buf)
{
	struct name_search search = { .match = false };
	struct net_buf_simple_state state;
	int err;

	if (sensor_conn != NULL) {
		return;
	}

	if ((info->adv_props & BT_GAP_ADV_PROP_CONNECTABLE) == 0U) {
		return;
	}

	/* Leave the buffer untouched for any other scan listener. */
	net_buf_simple_save(buf, &state);
	bt_data_parse(buf, ad_entry, &search);
	net_buf_simple_restore(buf, &state);

	if (!search.match) {
		return;
	}

	err = bt_le_scan_stop();
	if (err) {
		printk("could not stop scanning (err %d)\n", err);
		return;
	}

	err = bt_conn_le_create(info->addr, BT_CONN_LE_CREATE_CONN,
				BT_LE_CONN_PARAM_DEFAULT, &sensor_conn);
	if (err) {
		printk("connect to sensor failed (err %d)\n", err);
		sensor_conn = NULL;
		schedule_rescan();
	}
}

static struct bt_le_scan_cb scan_callbacks = {
	.recv = scan_recv,
};

static void on_connected(struct bt_conn *conn, uint8_t err)
{
	if (conn != sensor_conn) {
		return;
	}

	if (err != 0U) {
		printk("connection attempt failed (0x%02x)\n", err);
		bt_conn_unref(sensor_conn);
		sensor_conn = NULL;
		schedule_rescan();
		return;
	}

	printk("connected\n");
}

static void on_disconnected(struct bt_conn *conn, uint8_t reason)
{
	if (conn != sensor_conn) {
		return;
	}

	printk("disconnected (reason 0x%02x)\n", reason);

	bt_conn_unref(sensor_conn);
	sensor_conn = NULL;
	schedule_rescan();
}

BT_CONN_CB_DEFINE(central_conn_cb) = {
	.connected = on_connected,
	.disconnected = on_disconnected,
};

int main(void)
{
	int err;

	err = bt_enable(NULL);
	if (err) {
		printk("bt_enable failed (err %d)\n", err);
		return err;
	}

	err = bt_le_scan_cb_register(&scan_callbacks);
	if (err) {
		printk("scan callback registration failed (err %d)\n", err);
		return err;
	}

	err = bt_le_scan_start(&scan_param, NULL);
	if (err) {
		printk("scan start failed (err %d)\n", err);
		return err;
	}
	printk("scanning\n");

	return 0;
}
