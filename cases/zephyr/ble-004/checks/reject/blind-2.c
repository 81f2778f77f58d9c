/* defect: the periodic bt_le_adv_update_data() call passes no scan response data (NULL, 0), which clears the scan response so the name disappears after the first counter update.
 * breaks: "The scan response must keep the name at all times, including after every counter update."
 * must_fail: adv_update_keeps_scan_response
 */
/*
 * PalletTag-07: connectable BLE peripheral whose advertising carries a
 * rolling 16-bit counter in manufacturer specific data.
 *
 * All advertising API calls run on the system work queue:
 *  - a periodic k_timer (ISR context) only submits the tick work item,
 *  - the connection "recycled" callback only submits the restart work item.
 * Both work items execute on the same queue, so they never overlap.
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
#define RESTART_RETRY_DELAY  K_MSEC(100)

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

	err = bt_le_adv_update_data(ad, ARRAY_SIZE(ad), NULL, 0);
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

/* ---- advertising restart after disconnection ------------------------- */

static void restart_work_handler(struct k_work *work);
static K_WORK_DELAYABLE_DEFINE(restart_work, restart_work_handler);

static void restart_work_handler(struct k_work *work)
{
	int err;

	ARG_UNUSED(work);

	err = start_advertising();
	if (err == 0 || err == -EALREADY) {
		return;
	}

	printk("advertising restart failed (err %d), retrying\n", err);
	k_work_reschedule(&restart_work, RESTART_RETRY_DELAY);
}

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
	ARG_UNUSED(conn);
	printk("disconnected (reason 0x%02x)\n", reason);
}

static void recycled(void)
{
	/* The connection object is back in the pool: connectable
	 * advertising can be started again. Do it from the work queue.
	 */
	k_work_reschedule(&restart_work, K_NO_WAIT);
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
