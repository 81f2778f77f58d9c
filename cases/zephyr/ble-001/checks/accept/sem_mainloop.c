/*
 * Temperature peripheral: the main thread owns everything that is not a
 * Bluetooth callback. The recycled callback only posts a semaphore; the main
 * loop waits on it with the deadline of the next one-second tick, so it both
 * re-advertises and produces samples.
 */
#include <errno.h>
#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gatt.h>
#include <zephyr/bluetooth/uuid.h>

#define CENTI_MIN  2000
#define CENTI_MAX  3000
#define CENTI_STEP 50

enum app_flag {
	APP_FLAG_NOTIFY,
};

static struct bt_uuid_128 env_service_uuid = BT_UUID_INIT_128(
	BT_UUID_128_ENCODE(0x12345678, 0x1234, 0x5678, 0x1234, 0x56789abcdef0));
static struct bt_uuid_128 env_temp_uuid = BT_UUID_INIT_128(
	BT_UUID_128_ENCODE(0x12345678, 0x1234, 0x5678, 0x1234, 0x56789abcdef1));

/* Written by the main thread, read by the Bluetooth RX thread. */
static atomic_t last_centi = ATOMIC_INIT(CENTI_MIN);
/* Written by the CCC callback, read by the main thread. */
static atomic_t app_flags;

K_SEM_DEFINE(link_freed, 0, 1);

static ssize_t env_temp_read(struct bt_conn *conn, const struct bt_gatt_attr *attr, void *buf,
			     uint16_t len, uint16_t offset)
{
	const atomic_t *src = attr->user_data;
	uint8_t wire[sizeof(int16_t)];

	sys_put_le16((uint16_t)(int16_t)atomic_get(src), wire);
	return bt_gatt_attr_read(conn, attr, buf, len, offset, wire, sizeof(wire));
}

static void env_temp_cfg_changed(const struct bt_gatt_attr *attr, uint16_t value)
{
	ARG_UNUSED(attr);
	atomic_set_bit_to(&app_flags, APP_FLAG_NOTIFY, (value & BT_GATT_CCC_NOTIFY) != 0);
}

BT_GATT_SERVICE_DEFINE(env_service,
	BT_GATT_PRIMARY_SERVICE(&env_service_uuid),
	BT_GATT_CHARACTERISTIC(&env_temp_uuid.uuid, BT_GATT_CHRC_NOTIFY | BT_GATT_CHRC_READ,
			       BT_GATT_PERM_READ, env_temp_read, NULL, &last_centi),
	BT_GATT_CCC(env_temp_cfg_changed, BT_GATT_PERM_WRITE | BT_GATT_PERM_READ),
);

static void conn_recycled(void)
{
	/* Never restart advertising from the stack's own context. */
	k_sem_give(&link_freed);
}

BT_CONN_CB_DEFINE(peripheral_conn_cb) = {
	.recycled = conn_recycled,
};

static const struct bt_le_adv_param adv_param =
	BT_LE_ADV_PARAM_INIT(BT_LE_ADV_OPT_CONN, BT_GAP_ADV_FAST_INT_MIN_2,
			     BT_GAP_ADV_FAST_INT_MAX_2, NULL);

static const struct bt_data adv_payload[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR),
	BT_DATA(BT_DATA_UUID128_ALL, env_service_uuid.val, sizeof(env_service_uuid.val)),
};

static const struct bt_data scan_payload[] = {
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME, sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

static int advertise(void)
{
	return bt_le_adv_start(&adv_param, adv_payload, ARRAY_SIZE(adv_payload), scan_payload,
			       ARRAY_SIZE(scan_payload));
}

static void push_sample(const struct bt_gatt_attr *value_attr, int16_t centi)
{
	uint8_t wire[sizeof(int16_t)];
	struct bt_gatt_notify_params params = {
		.attr = value_attr,
		.data = wire,
		.len = sizeof(wire),
	};
	int rc;

	sys_put_le16((uint16_t)centi, wire);
	rc = bt_gatt_notify_cb(NULL, &params);
	if (rc != 0 && rc != -ENOTCONN) {
		printk("temperature notification failed (%d)\n", rc);
	}
}

/* Triangle ramp 20.00 -> 30.00 -> 20.00 degC. */
static int16_t next_sample(int16_t centi, bool *rising)
{
	if (*rising && centi + CENTI_STEP > CENTI_MAX) {
		*rising = false;
	} else if (!*rising && centi - CENTI_STEP < CENTI_MIN) {
		*rising = true;
	}
	return *rising ? centi + CENTI_STEP : centi - CENTI_STEP;
}

int main(void)
{
	const struct bt_gatt_attr *temp_value;
	k_timepoint_t tick;
	int16_t centi = CENTI_MIN;
	bool rising = true;
	int rc;

	rc = bt_enable(NULL);
	if (rc != 0) {
		printk("Bluetooth init failed (%d)\n", rc);
		return rc;
	}

	temp_value = bt_gatt_find_by_uuid(env_service.attrs, env_service.attr_count,
					  &env_temp_uuid.uuid);
	if (temp_value == NULL) {
		printk("temperature characteristic not found\n");
		return -ENOENT;
	}

	rc = advertise();
	if (rc != 0) {
		printk("Advertising failed to start (%d)\n", rc);
		return rc;
	}
	printk("advertising started\n");

	tick = sys_timepoint_calc(K_SECONDS(1));
	while (true) {
		if (k_sem_take(&link_freed, sys_timepoint_timeout(tick)) == 0) {
			rc = advertise();
			if (rc != 0 && rc != -EALREADY) {
				printk("Advertising restart failed (%d)\n", rc);
			}
			continue;
		}
		tick = sys_timepoint_calc(K_SECONDS(1));

		centi = next_sample(centi, &rising);
		atomic_set(&last_centi, centi);

		if (atomic_test_bit(&app_flags, APP_FLAG_NOTIFY)) {
			push_sample(temp_value, centi);
		}
	}

	return 0;
}
