/*
 * Pallet tag beacon: connectable legacy advertising with a rolling counter
 * in the manufacturer specific data and the device name in the scan
 * response.
 *
 * Every advertising API call is made by the main thread. Interrupt-context
 * and Bluetooth-callback code only record what happened (atomic counters /
 * flags) and wake the main thread through a semaphore.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gap.h>

#define DEVICE_NAME      CONFIG_BT_DEVICE_NAME
#define DEVICE_NAME_LEN  (sizeof(DEVICE_NAME) - 1)

#define ADV_INTERVAL_MS      250
#define ADV_INTERVAL_UNITS   ((ADV_INTERVAL_MS * 1000) / 625) /* 0.625 ms units */

#define COMPANY_ID_TESTING   0xFFFFu
#define PAYLOAD_FORMAT       0x01u
#define UPDATE_PERIOD_MS     2000
#define RESUME_RETRY_MS      200

enum {
	MFG_IDX_COMPANY_LO = 0,
	MFG_IDX_COMPANY_HI,
	MFG_IDX_FORMAT,
	MFG_IDX_COUNTER_LO,
	MFG_IDX_COUNTER_HI,
	MFG_LEN
};

static uint8_t mfg[MFG_LEN];
static uint16_t rolling_counter;

static const struct bt_data adv_payload[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR),
	BT_DATA(BT_DATA_MANUFACTURER_DATA, mfg, MFG_LEN),
};

static const struct bt_data scan_rsp[] = {
	BT_DATA(BT_DATA_NAME_COMPLETE, DEVICE_NAME, DEVICE_NAME_LEN),
};

static const struct bt_le_adv_param adv_param = {
	.id = BT_ID_DEFAULT,
	.sid = 0,
	.secondary_max_skip = 0,
	.options = BT_LE_ADV_OPT_CONN,
	.interval_min = ADV_INTERVAL_UNITS,
	.interval_max = ADV_INTERVAL_UNITS,
	.peer = NULL,
};

/* Wake-up plumbing for the main thread */
K_SEM_DEFINE(main_wake, 0, K_SEM_MAX_LIMIT);
static atomic_t pending_ticks = ATOMIC_INIT(0);
static atomic_t resume_requested = ATOMIC_INIT(0);

static void encode_payload(uint16_t value)
{
	mfg[MFG_IDX_COMPANY_LO] = (uint8_t)(COMPANY_ID_TESTING & 0xFFu);
	mfg[MFG_IDX_COMPANY_HI] = (uint8_t)(COMPANY_ID_TESTING >> 8);
	mfg[MFG_IDX_FORMAT] = PAYLOAD_FORMAT;
	mfg[MFG_IDX_COUNTER_LO] = (uint8_t)(value & 0xFFu);
	mfg[MFG_IDX_COUNTER_HI] = (uint8_t)(value >> 8);
}

static int adv_begin(void)
{
	return bt_le_adv_start(&adv_param, adv_payload, ARRAY_SIZE(adv_payload),
			       scan_rsp, ARRAY_SIZE(scan_rsp));
}

/* k_timer expiry: interrupt context, so only count and wake */
static void update_timer_expired(struct k_timer *timer)
{
	ARG_UNUSED(timer);
	atomic_inc(&pending_ticks);
	k_sem_give(&main_wake);
}

K_TIMER_DEFINE(update_timer, update_timer_expired, NULL);

static void on_connected(struct bt_conn *conn, uint8_t err)
{
	ARG_UNUSED(conn);

	if (err) {
		printk("Connection failed (0x%02x)\n", err);
	} else {
		printk("Phone connected\n");
	}
}

static void on_disconnected(struct bt_conn *conn, uint8_t reason)
{
	ARG_UNUSED(conn);
	printk("Phone disconnected (0x%02x)\n", reason);
}

/* Connection object returned to the pool: advertising may be restarted */
static void on_recycled(void)
{
	atomic_set(&resume_requested, 1);
	k_sem_give(&main_wake);
}

BT_CONN_CB_DEFINE(tag_conn_cb) = {
	.connected = on_connected,
	.disconnected = on_disconnected,
	.recycled = on_recycled,
};

static void apply_ticks(atomic_val_t ticks)
{
	int err;

	rolling_counter = (uint16_t)(rolling_counter + (uint16_t)ticks);
	encode_payload(rolling_counter);

	err = bt_le_adv_update_data(adv_payload, ARRAY_SIZE(adv_payload),
				    scan_rsp, ARRAY_SIZE(scan_rsp));
	/* -EAGAIN: advertising is off while a phone is connected; the
	 * payload already holds the value used by the next restart.
	 */
	if (err && err != -EAGAIN) {
		printk("Advertising data update failed (err %d)\n", err);
	}
}

/* Returns true if advertising still has to be resumed later. */
static bool resume_advertising(void)
{
	int err = adv_begin();

	if (err == 0 || err == -EALREADY) {
		return false;
	}

	printk("Advertising resume failed (err %d)\n", err);
	return true;
}

int main(void)
{
	bool resume_pending = false;
	int err;

	err = bt_enable(NULL);
	if (err) {
		printk("Bluetooth init failed (err %d)\n", err);
		return err;
	}

	rolling_counter = 0U;
	encode_payload(rolling_counter);

	err = adv_begin();
	if (err) {
		printk("Advertising failed to start (err %d)\n", err);
		return err;
	}

	printk("advertising started\n");

	k_timer_start(&update_timer, K_MSEC(UPDATE_PERIOD_MS),
		      K_MSEC(UPDATE_PERIOD_MS));

	while (1) {
		atomic_val_t ticks;

		(void)k_sem_take(&main_wake, resume_pending ? K_MSEC(RESUME_RETRY_MS)
							    : K_FOREVER);

		ticks = atomic_set(&pending_ticks, 0);
		if (ticks > 0) {
			apply_ticks(ticks);
		}

		if (atomic_set(&resume_requested, 0) != 0) {
			resume_pending = true;
		}
		if (resume_pending) {
			resume_pending = resume_advertising();
		}
	}

	return 0;
}
