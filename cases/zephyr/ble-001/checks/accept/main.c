#include <zephyr/kernel.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/bluetooth/conn.h>
#include <zephyr/bluetooth/gatt.h>
#include <zephyr/bluetooth/uuid.h>

#define SVC_UUID BT_UUID_128_ENCODE(0x12345678, 0x1234, 0x5678, 0x1234, 0x56789abcdef0)

static struct bt_uuid_128 svc_uuid = BT_UUID_INIT_128(SVC_UUID);
static struct bt_uuid_128 chr_uuid =
	BT_UUID_INIT_128(BT_UUID_128_ENCODE(0x12345678, 0x1234, 0x5678, 0x1234, 0x56789abcdef1));

static volatile bool subscribed;
static int16_t reading = 2000;
static struct k_work_delayable readv_work;

static ssize_t on_read(struct bt_conn *conn, const struct bt_gatt_attr *attr, void *buf,
		       uint16_t len, uint16_t offset)
{
	int16_t le = (int16_t)sys_cpu_to_le16(reading);

	return bt_gatt_attr_read(conn, attr, buf, len, offset, &le, sizeof(le));
}

static void on_ccc(const struct bt_gatt_attr *attr, uint16_t value)
{
	subscribed = (value & BT_GATT_CCC_NOTIFY) != 0;
}

BT_GATT_SERVICE_DEFINE(svc,
	BT_GATT_PRIMARY_SERVICE(&svc_uuid),
	BT_GATT_CHARACTERISTIC(&chr_uuid.uuid, BT_GATT_CHRC_READ | BT_GATT_CHRC_NOTIFY,
			       BT_GATT_PERM_READ, on_read, NULL, &reading),
	BT_GATT_CCC(on_ccc, BT_GATT_PERM_READ | BT_GATT_PERM_WRITE),
);

static const struct bt_data ad[] = {
	BT_DATA_BYTES(BT_DATA_FLAGS, (BT_LE_AD_GENERAL | BT_LE_AD_NO_BREDR)),
	BT_DATA_BYTES(BT_DATA_UUID128_ALL, SVC_UUID),
};

static const struct bt_data sd[] = {
	BT_DATA(BT_DATA_NAME_COMPLETE, CONFIG_BT_DEVICE_NAME, sizeof(CONFIG_BT_DEVICE_NAME) - 1),
};

static void readvertise(struct k_work *work)
{
	int err = bt_le_adv_start(BT_LE_ADV_CONN_FAST_2, ad, ARRAY_SIZE(ad), sd, ARRAY_SIZE(sd));

	if (err) {
		printk("re-advertising failed (%d)\n", err);
	}
}

static void disconnected(struct bt_conn *conn, uint8_t reason)
{
	subscribed = false;
	k_work_schedule(&readv_work, K_MSEC(100));
}

BT_CONN_CB_DEFINE(conn_cb) = {
	.disconnected = disconnected,
};

int main(void)
{
	int err = bt_enable(NULL);

	if (err < 0) {
		printk("Bluetooth init failed (%d)\n", err);
		return err;
	}
	k_work_init_delayable(&readv_work, readvertise);

	err = bt_le_adv_start(BT_LE_ADV_CONN_FAST_2, ad, ARRAY_SIZE(ad), sd, ARRAY_SIZE(sd));
	if (err < 0) {
		printk("Advertising failed (%d)\n", err);
		return err;
	}
	printk("advertising started\n");

	while (1) {
		k_sleep(K_SECONDS(1));
		reading += 10;
		if (reading > 3000) {
			reading = 2000;
		}
		if (!subscribed) {
			continue;
		}
		int16_t le = (int16_t)sys_cpu_to_le16(reading);

		(void)bt_gatt_notify(NULL, &svc.attrs[2], &le, sizeof(le));
	}
	return 0;
}
