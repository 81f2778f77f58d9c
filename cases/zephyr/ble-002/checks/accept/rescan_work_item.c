/*
 * BLE central: look for the advertiser named "EmbedEval Sensor", connect to it
 * and go back to scanning whenever the link attempt fails or the link drops.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gap.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

static const char sensor_name[] = "EmbedEval Sensor";

/* What the AD walker looks for and what it found. */
struct name_probe {
	const char *wanted;
	size_t wanted_len;
	bool matched;
};

/* All central state in one place; link owns the bt_conn_le_create() reference. */
static struct {
	struct bt_conn *link;
} central;

static const struct bt_le_scan_param scan_params = {
	.type = BT_LE_SCAN_TYPE_PASSIVE,
	.options = BT_LE_SCAN_OPT_NONE,
	.interval = BT_GAP_SCAN_FAST_INTERVAL,
	.window = BT_GAP_SCAN_FAST_WINDOW,
};

static void on_advertiser(const bt_addr_le_t *addr, int8_t rssi, uint8_t adv_type,
			  struct net_buf_simple *buf);

static int scan_resume(void)
{
	int rc = bt_le_scan_start(&scan_params, on_advertiser);

	if (rc == 0) {
		printk("scanning\n");
		return 0;
	}
	printk("cannot start scanning (%d)\n", rc);
	return rc;
}

static void rescan_handler(struct k_work *work)
{
	ARG_UNUSED(work);
	(void)scan_resume();
}

static K_WORK_DEFINE(rescan_work, rescan_handler);

/* Drops our reference to the link (failed or finished) and looks again. */
static void forget_link_and_rescan(void)
{
	struct bt_conn *old = central.link;

	central.link = NULL;
	if (old != NULL) {
		bt_conn_unref(old);
	}
	k_work_submit(&rescan_work);
}

static void link_up(struct bt_conn *conn, uint8_t hci_err)
{
	if (conn != central.link) {
		return;
	}

	if (hci_err != 0U) {
		printk("connection failed (HCI 0x%02x)\n", hci_err);
		forget_link_and_rescan();
	} else {
		printk("connected\n");
	}
}

static void link_down(struct bt_conn *conn, uint8_t reason)
{
	if (conn == central.link) {
		printk("disconnected (reason 0x%02x)\n", reason);
		forget_link_and_rescan();
	}
}

static struct bt_conn_cb link_events = {
	.connected = link_up,
	.disconnected = link_down,
};

static bool ad_name_visitor(struct bt_data *field, void *user_data)
{
	struct name_probe *probe = user_data;

	switch (field->type) {
	case BT_DATA_NAME_COMPLETE:
	case BT_DATA_NAME_SHORTENED:
		probe->matched = field->data_len == probe->wanted_len &&
				 memcmp(field->data, probe->wanted, probe->wanted_len) == 0;
		return false; /* the name field was seen, stop walking */
	default:
		return true;
	}
}

static bool is_connectable(uint8_t adv_type)
{
	switch (adv_type) {
	case BT_GAP_ADV_TYPE_ADV_IND:
	case BT_GAP_ADV_TYPE_ADV_DIRECT_IND:
		return true;
	default:
		return false;
	}
}

static void connect_to_sensor(const bt_addr_le_t *addr)
{
	char addr_str[BT_ADDR_LE_STR_LEN];
	int rc;

	/* The controller cannot scan and initiate at the same time. */
	rc = bt_le_scan_stop();
	if (rc != 0) {
		printk("cannot stop scanning (%d)\n", rc);
		return;
	}

	rc = bt_conn_le_create(addr, BT_CONN_LE_CREATE_CONN, BT_LE_CONN_PARAM_DEFAULT,
			       &central.link);
	if (rc != 0) {
		printk("connection request refused (%d)\n", rc);
		central.link = NULL;
		(void)scan_resume();
		return;
	}

	bt_addr_le_to_str(addr, addr_str, sizeof(addr_str));
	printk("connecting to %s\n", addr_str);
}

static void on_advertiser(const bt_addr_le_t *addr, int8_t rssi, uint8_t adv_type,
			  struct net_buf_simple *buf)
{
	struct name_probe probe = {
		.wanted = sensor_name,
		.wanted_len = sizeof(sensor_name) - 1,
		.matched = false,
	};

	ARG_UNUSED(rssi);

	if (central.link == NULL && is_connectable(adv_type)) {
		bt_data_parse(buf, ad_name_visitor, &probe);
		if (probe.matched) {
			connect_to_sensor(addr);
		}
	}
}

int main(void)
{
	int err = bt_enable(NULL);

	if (err != 0) {
		printk("Bluetooth init failed (%d)\n", err);
		return err;
	}

	bt_conn_cb_register(&link_events);

	err = scan_resume();
	if (err != 0) {
		return err;
	}
	return 0;
}
