/*
 * Central for the "EmbedEval Sensor": advertising reports arrive through a
 * registered scan listener (struct bt_le_scan_cb), and every return to
 * scanning goes through one delayable work item on the system workqueue.
 */
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gap.h>

#define SENSOR_NAME        "EmbedEval Sensor"
#define SENSOR_NAME_LEN    (sizeof(SENSOR_NAME) - 1U)
#define RESCAN_RETRY_DELAY K_SECONDS(1)

/* Reference handed out by bt_conn_le_create(); NULL while scanning. */
static struct bt_conn *sensor_conn;

static struct k_work_delayable rescan_work;

static const struct bt_le_scan_param passive_scan = {
	.type = BT_LE_SCAN_TYPE_PASSIVE,
	.options = BT_LE_SCAN_OPT_FILTER_DUPLICATE,
	.interval = BT_GAP_SCAN_FAST_INTERVAL,
	.window = BT_GAP_SCAN_FAST_WINDOW,
};

static int scan_begin(void)
{
	int err = bt_le_scan_start(&passive_scan, NULL);

	if (err) {
		printk("scan start failed (err %d)\n", err);
		return err;
	}
	printk("scanning\n");
	return 0;
}

static void rescan_fn(struct k_work *work)
{
	ARG_UNUSED(work);

	if (scan_begin() != 0) {
		/* The stack may still be tearing the link down: try again later. */
		(void)k_work_reschedule(&rescan_work, RESCAN_RETRY_DELAY);
	}
}

static bool name_entry(struct bt_data *data, void *user_data)
{
	bool *is_sensor = user_data;

	if (data->type == BT_DATA_NAME_COMPLETE || data->type == BT_DATA_NAME_SHORTENED) {
		*is_sensor = data->data_len == SENSOR_NAME_LEN &&
			     memcmp(data->data, SENSOR_NAME, SENSOR_NAME_LEN) == 0;
		return false;
	}
	return true;
}

static void scan_recv(const struct bt_le_scan_recv_info *info, struct net_buf_simple *buf)
{
	bool is_sensor = false;
	int err;

	if (sensor_conn != NULL || (info->adv_props & BT_GAP_ADV_PROP_CONNECTABLE) == 0U) {
		return;
	}

	bt_data_parse(buf, name_entry, &is_sensor);
	if (!is_sensor) {
		return;
	}

	err = bt_le_scan_stop();
	if (err) {
		printk("scan stop failed (err %d)\n", err);
		return;
	}

	err = bt_conn_le_create(info->addr, BT_CONN_LE_CREATE_CONN, BT_LE_CONN_PARAM_DEFAULT,
				&sensor_conn);
	if (err) {
		printk("connection request failed (err %d)\n", err);
		sensor_conn = NULL;
		(void)k_work_reschedule(&rescan_work, K_NO_WAIT);
		return;
	}
}

static struct bt_le_scan_cb scan_listener = {
	.recv = scan_recv,
};

static void drop_sensor_conn(void)
{
	struct bt_conn *conn = sensor_conn;

	sensor_conn = NULL;
	bt_conn_unref(conn);
}

static void on_connected(struct bt_conn *conn, uint8_t err)
{
	if (conn != sensor_conn) {
		return;
	}
	if (err != 0U) {
		printk("connection failed (err 0x%02x)\n", err);
		drop_sensor_conn();
		(void)k_work_reschedule(&rescan_work, K_NO_WAIT);
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
	drop_sensor_conn();
	(void)k_work_reschedule(&rescan_work, K_NO_WAIT);
}

BT_CONN_CB_DEFINE(sensor_conn_cb) = {
	.connected = on_connected,
	.disconnected = on_disconnected,
};

int main(void)
{
	int err;

	k_work_init_delayable(&rescan_work, rescan_fn);

	err = bt_enable(NULL);
	if (err) {
		printk("Bluetooth init failed (err %d)\n", err);
		return err;
	}

	err = bt_le_scan_cb_register(&scan_listener);
	if (err) {
		printk("scan listener registration failed (err %d)\n", err);
		return err;
	}

	return scan_begin();
}
