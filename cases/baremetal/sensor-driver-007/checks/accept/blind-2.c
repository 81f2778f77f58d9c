/*
 * VB-3 vibration logger: QM-6 accelerometer driver (init + FIFO drain).
 */
#include <stddef.h>
#include <stdint.h>

#include "qm6.h"

static struct {
	int     ready;   /* non-zero after a successful qm6_init() */
	uint8_t range;   /* CTRL bits 1:0 of the last successful init */
} drv;

/* Scale of one LSB: full scale 2000 * 2^r mg over 32768 counts
 * = 125 / 2^(11 - r) mg. */
static int32_t to_milli_g(const uint8_t *msb_first, unsigned range)
{
	int32_t raw = (int16_t)(((unsigned)msb_first[0] << 8) | msb_first[1]);
	unsigned shift = 11u - range;
	uint32_t mag = (uint32_t)(raw < 0 ? -raw : raw) * 125u;

	mag = (mag + (1u << (shift - 1u))) >> shift;   /* half away from zero */
	return raw < 0 ? -(int32_t)mag : (int32_t)mag;
}

int qm6_init(uint8_t range, uint8_t watermark)
{
	const uint8_t seq[4][2] = {
		{ QM6_REG_CTRL,       0x00u },                          /* sampling off */
		{ QM6_REG_FIFO_FLUSH, QM6_FLUSH },
		{ QM6_REG_FIFO_WTM,   watermark },
		{ QM6_REG_CTRL,       (uint8_t)(QM6_CTRL_RUN | range) },
	};
	uint8_t reg = QM6_REG_WHO_AM_I;
	uint8_t who = 0u;
	unsigned i;

	drv.ready = 0;

	if (range > 3u || watermark == 0u || watermark > 32u)
		return QM6_EINVAL;

	if (i2c_write_read(QM6_ADDR, &reg, 1, &who, 1) != I2C_OK)
		return QM6_EIO;
	if (who != QM6_WHO_AM_I)
		return QM6_EID;

	for (i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		if (i2c_write_read(QM6_ADDR, seq[i], 2, NULL, 0) != I2C_OK)
			return QM6_EIO;
	}

	drv.range = range;
	drv.ready = 1;
	return QM6_OK;
}

int qm6_drain(struct qm6_sample *out, size_t max)
{
	uint8_t data[QM6_FIFO_FRAMES * QM6_FRAME_BYTES];
	uint8_t st[2];
	uint8_t reg;
	size_t want, total, pos;

	if (!out || !max)
		return QM6_EINVAL;
	if (!drv.ready)
		return QM6_ESTATE;

	reg = QM6_REG_FIFO_STATUS1;
	if (i2c_write_read(QM6_ADDR, &reg, 1, st, 2) != I2C_OK)
		return QM6_EIO;

	if (st[1] & QM6_STATUS2_OVR) {
		static const uint8_t flush[2] = { QM6_REG_FIFO_FLUSH, QM6_FLUSH };
		return i2c_write_read(QM6_ADDR, flush, 2, NULL, 0) == I2C_OK
		       ? QM6_EOVERRUN : QM6_EIO;
	}
	if (st[0] > QM6_FIFO_FRAMES)
		return QM6_EIO;

	want = st[0] < max ? st[0] : max;
	total = want * QM6_FRAME_BYTES;

	/* Largest whole-frame burst under the bus limit: 30 bytes (5 frames). */
	reg = QM6_REG_FIFO_DATA;
	for (pos = 0; pos < total; ) {
		const size_t burst = I2C_MAX_READ - I2C_MAX_READ % QM6_FRAME_BYTES;
		size_t len = total - pos < burst ? total - pos : burst;

		if (i2c_write_read(QM6_ADDR, &reg, 1, &data[pos], len) != I2C_OK)
			return QM6_EIO;
		pos += len;
	}

	for (pos = 0; pos < want; pos++) {
		const uint8_t *fr = data + pos * QM6_FRAME_BYTES;
		struct qm6_sample s;

		s.x_mg = to_milli_g(fr + 0, drv.range);
		s.y_mg = to_milli_g(fr + 2, drv.range);
		s.z_mg = to_milli_g(fr + 4, drv.range);
		out[pos] = s;
	}

	return (int)want;
}
