#include <zephyr/kernel.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/sys/printk.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gap.h>

#define COMPANY_ID_TEST  0xFFFF
#define FORMAT_VERSION   0x01
#define UPDATE_PERIOD_MS 2000
/* 250 ms in units of 0.625 ms */
#define ADV_INTERVAL     400

static uint8_t mfg_data[5] = {
	COMPANY_ID_TEST & 0xff, COMPANY_ID_TEST >> 8, FORMAT_VERSION, 0x00, 0x00,
};

static const struct bt_data ad[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, (BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR)),
	BT_DATA(BT_DATA_MANUFACTURER_DATA, mfg_data, sizeof(mfg_data)),
};

static const struct bt_data sd[] = {
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME, sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

static const struct bt_le_adv_param adv_param =
	BT_LE_ADV_PARAM_INIT(BT_LE_ADV_OPT_CONN, ADV_INTERVAL, ADV_INTERVAL, NULL);

static uint16_t counter;

static void counter_work_handler(struct k_work *work);
static void adv_restart_handler(struct k_work *work);

static K_WORK_DELAYABLE_DEFINE(counter_work, counter_work_handler);
static K_WORK_DEFINE(adv_restart_work, adv_restart_handler);

/* Runs on the system work queue, like the restart below: mfg_data is only
 * written from there, so the two never interleave.
 */
static void counter_work_handler(struct k_work *work)
{
	int err;

	counter++;
	sys_put_le16(counter, &mfg_data[3]);

	/* Pass the scan response again: an empty one would erase the name. */
	err = bt_le_adv_update_data(ad, ARRAY_SIZE(ad), sd, ARRAY_SIZE(sd));
	if (err && err != -EAGAIN) {
		printk("adv update failed (err %d)\n", err);
	}
	k_work_schedule(&counter_work, K_MSEC(UPDATE_PERIOD_MS));
}

static void adv_restart_handler(struct k_work *work)
{
	int err = bt_le_adv_start(&adv_param, ad, ARRAY_SIZE(ad), sd, ARRAY_SIZE(sd));

	if (err && err != -EALREADY) {
		printk("advertising restart failed (err %d)\n", err);
	}
}

static void connected(struct bt_conn *conn, uint8_t err)
{
	if (err) {
		printk("connection failed (err 0x%02x)\n", err);
		return;
	}
	printk("connected\n");
}

static void disconnected(struct bt_conn *conn, uint8_t reason)
{
	printk("disconnected (reason 0x%02x)\n", reason);
}

/* The connection object is free again only here: with one connection
 * object, bt_le_adv_start() in disconnected() would fail with -ENOMEM.
 */
static void recycled(void)
{
	k_work_submit(&adv_restart_work);
}

BT_CONN_CB_DEFINE(conn_callbacks) = {
	.connected = connected,
	.disconnected = disconnected,
	.recycled = recycled,
};

int main(void)
{
	int err;

	err = bt_enable(NULL);
	if (err) {
		printk("Bluetooth init failed (err %d)\n", err);
		return err;
	}

	err = bt_le_adv_start(&adv_param, ad, ARRAY_SIZE(ad), sd, ARRAY_SIZE(sd));
	if (err) {
		printk("Advertising failed to start (err %d)\n", err);
		return err;
	}
	printk("advertising started\n");

	k_work_schedule(&counter_work, K_MSEC(UPDATE_PERIOD_MS));
	return 0;
}
