/* Pallet tag: one loop in main refreshes the counter and restarts advertising
 * once the stack has released the connection object.
 */
#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gap.h>

struct tag_payload {
	uint8_t company[2];
	uint8_t format;
	uint8_t count_lo;
	uint8_t count_hi;
} __packed;

static struct tag_payload payload = {
	.company = {0xff, 0xff},
	.format = 0x01,
};

static const uint8_t flags = BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR;

static const struct bt_data adv_data[] = {
	{ .type = BT_DATA_FLAGS, .data_len = 1, .data = &flags },
	{ .type = BT_DATA_MANUFACTURER_DATA, .data_len = sizeof(payload), .data = (const uint8_t *)&payload },
};

static const struct bt_data scan_rsp[] = {
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME, sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

static atomic_t need_restart;

static void on_recycled(void)
{
	atomic_set(&need_restart, 1);
}

static struct bt_conn_cb conn_cb = {
	.recycled = on_recycled,
};

static int adv_begin(void)
{
	return bt_le_adv_start(BT_LE_ADV_PARAM(BT_LE_ADV_OPT_CONN, (250 * 1000 / 625),
					       (250 * 1000 / 625), NULL),
			       adv_data, ARRAY_SIZE(adv_data), scan_rsp, ARRAY_SIZE(scan_rsp));
}

int main(void)
{
	uint16_t count = 0;
	int ret;

	bt_conn_cb_register(&conn_cb);

	ret = bt_enable(NULL);
	if (ret != 0) {
		printk("bt_enable: %d\n", ret);
		return ret;
	}

	ret = adv_begin();
	if (ret != 0) {
		printk("bt_le_adv_start: %d\n", ret);
		return ret;
	}
	printk("advertising started\n");

	for (;;) {
		k_sleep(K_SECONDS(2));

		count = (uint16_t)(count + 1U);
		payload.count_lo = (uint8_t)(count & 0xffU);
		payload.count_hi = (uint8_t)(count >> 8);

		ret = bt_le_adv_update_data(adv_data, ARRAY_SIZE(adv_data), scan_rsp, ARRAY_SIZE(scan_rsp));
		if (ret != 0 && ret != -EAGAIN) {
			printk("update: %d\n", ret);
		}

		if (atomic_cas(&need_restart, 1, 0)) {
			ret = adv_begin();
			if (ret != 0) {
				printk("restart: %d\n", ret);
				atomic_set(&need_restart, 1);
			}
		}
	}
	return 0;
}
