/* defect: advertising is restarted directly inside the disconnected callback, while the old connection object is still held; with CONFIG_BT_MAX_CONN=1 bt_le_adv_start() fails (-ENOMEM) and is never retried, so the tag stays silent after the phone leaves.
 * breaks: "When the connected phone disconnects, advertising must resume by itself with the same parameters and data, without a reset."
 * must_fail: advertising_resumes_after_disconnect
 */
/*
 * PalletTag-07: connectable BLE peripheral whose advertising carries a
 * rolling 16-bit counter in manufacturer specific data.
 *
 * Advertising API calls only run in thread context:
 *  - a periodic k_timer (ISR context) only submits the tick work item,
 *  - advertising is restarted from the disconnected callback.
 */

#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gap.h>

/* Advertising interval unit is 0.625 ms: 250 ms / 0.625 ms = 400 */
#define ADV_INTERVAL_250MS   400U

#define COUNTER_PERIOD       K_SECONDS(2)

#define MFG_FORMAT_BYTE      0x01
#define MFG_COUNTER_OFFSET   3

/* company id 0xFFFF (little-endian), format byte, counter (little-endian) */
static uint8_t mfg_data[5] = { 0xFF, 0xFF, MFG_FORMAT_BYTE, 0x00, 0x00 };
static uint16_t counter;

static const struct bt_data ad[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, (BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR)),
	BT_DATA(BT_DATA_MANUFACTURER_DATA, mfg_data, sizeof(mfg_data)),
};

static const struct bt_data sd[] = {
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME,
		sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

static int start_advertising(void)
{
	return bt_le_adv_start(BT_LE_ADV_PARAM(BT_LE_ADV_OPT_CONN,
					       ADV_INTERVAL_250MS,
					       ADV_INTERVAL_250MS, NULL),
			       ad, ARRAY_SIZE(ad), sd, ARRAY_SIZE(sd));
}

/* ---- periodic counter update ---------------------------------------- */

static void tick_work_handler(struct k_work *work)
{
	int err;

	ARG_UNUSED(work);

	counter++; /* uint16_t: 65535 wraps to 0 */
	sys_put_le16(counter, &mfg_data[MFG_COUNTER_OFFSET]);

	err = bt_le_adv_update_data(ad, ARRAY_SIZE(ad), sd, ARRAY_SIZE(sd));
	if (err == -EAGAIN) {
		/* Not advertising (a phone is connected): the new value is
		 * kept in mfg_data and goes out when advertising restarts.
		 */
		return;
	}
	if (err) {
		printk("adv data update failed (err %d)\n", err);
	}
}

static K_WORK_DEFINE(tick_work, tick_work_handler);

static void tick_timer_expiry(struct k_timer *timer)
{
	ARG_UNUSED(timer);
	/* interrupt context: defer to the work queue */
	k_work_submit(&tick_work);
}

K_TIMER_DEFINE(tick_timer, tick_timer_expiry, NULL);

/* ---- connection handling --------------------------------------------- */

static void connected(struct bt_conn *conn, uint8_t err)
{
	ARG_UNUSED(conn);

	if (err) {
		printk("connection failed (err 0x%02x)\n", err);
		return;
	}
	printk("connected\n");
}

static void disconnected(struct bt_conn *conn, uint8_t reason)
{
	int err;

	ARG_UNUSED(conn);
	printk("disconnected (reason 0x%02x)\n", reason);

	/* Bluetooth callbacks run in a thread, so advertising can be
	 * started again right here.
	 */
	err = start_advertising();
	if (err) {
		printk("advertising restart failed (err %d)\n", err);
	}
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
		printk("bt_enable failed (err %d)\n", err);
		return err;
	}

	counter = 0;
	sys_put_le16(counter, &mfg_data[MFG_COUNTER_OFFSET]);

	err = start_advertising();
	if (err) {
		printk("bt_le_adv_start failed (err %d)\n", err);
		return err;
	}

	printk("advertising started\n");

	k_timer_start(&tick_timer, COUNTER_PERIOD, COUNTER_PERIOD);

	return 0;
}
