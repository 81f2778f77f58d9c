/* defect: rounds with (num + 1024) >> 11, so negative exact halves round up
 *         (toward zero) instead of away from zero: raw -1024 at r = 0 gives -62.
 * breaks: "Conversion of a raw value `raw` (−32768..32767) with range `r` (0..3), done exactly in integers: milli-g = `raw` × (2000 × 2^r) / 32768, rounded to the nearest integer, an exact half rounded away from zero."
 * must_fail: scenario_convert_range0_rounding, scenario_convert_ranges_1_to_3
 */
/*
 * QM-6 three-axis accelerometer FIFO driver for the VB-3 vibration logger.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qm6.h"

/* Whole frames that fit in one read transaction: 32 / 6 = 5 (30 bytes). */
#define FRAMES_PER_BURST  (I2C_MAX_READ / QM6_FRAME_BYTES)
#define BURST_BYTES       (FRAMES_PER_BURST * QM6_FRAME_BYTES)

static bool    s_initialised;
static uint8_t s_range;

static int reg_read(uint8_t reg, uint8_t *buf, size_t len)
{
	return i2c_write_read(QM6_ADDR, &reg, 1u, buf, len);
}

static int reg_write(uint8_t reg, uint8_t value)
{
	uint8_t wr[2] = { reg, value };
	return i2c_write_read(QM6_ADDR, wr, sizeof wr, NULL, 0u);
}

/* raw * (2000 * 2^r) / 32768 == raw * 125 * 2^r / 2048, rounded to nearest,
 * halves away from zero. |raw * 125 * 8| <= 32768000 fits in int32_t. */
static int32_t raw_to_mg(int16_t raw, uint8_t range)
{
	int32_t num = (int32_t)raw * (125 << range);

	return (num + 1024) >> 11;
}

static int16_t be16(const uint8_t *p)
{
	return (int16_t)(uint16_t)(((uint16_t)p[0] << 8) | p[1]);
}

int qm6_init(uint8_t range, uint8_t watermark)
{
	uint8_t id;

	s_initialised = false;

	if (range > 3u || watermark < 1u || watermark > QM6_FIFO_FRAMES)
		return QM6_EINVAL;

	if (reg_read(QM6_REG_WHO_AM_I, &id, 1u) != I2C_OK)
		return QM6_EIO;
	if (id != QM6_WHO_AM_I)
		return QM6_EID;

	if (reg_write(QM6_REG_CTRL, 0x00u) != I2C_OK)
		return QM6_EIO;
	if (reg_write(QM6_REG_FIFO_FLUSH, QM6_FLUSH) != I2C_OK)
		return QM6_EIO;
	if (reg_write(QM6_REG_FIFO_WTM, watermark) != I2C_OK)
		return QM6_EIO;
	if (reg_write(QM6_REG_CTRL, (uint8_t)(QM6_CTRL_RUN | range)) != I2C_OK)
		return QM6_EIO;

	s_range = range;
	s_initialised = true;
	return QM6_OK;
}

int qm6_drain(struct qm6_sample *out, size_t max)
{
	uint8_t status[2];
	uint8_t buf[BURST_BYTES];
	size_t n, done;

	if (out == NULL || max == 0u)
		return QM6_EINVAL;
	if (!s_initialised)
		return QM6_ESTATE;

	if (reg_read(QM6_REG_FIFO_STATUS1, status, sizeof status) != I2C_OK)
		return QM6_EIO;

	if (status[1] & QM6_STATUS2_OVR) {
		/* FIFO content is misaligned: throw it away. */
		if (reg_write(QM6_REG_FIFO_FLUSH, QM6_FLUSH) != I2C_OK)
			return QM6_EIO;
		return QM6_EOVERRUN;
	}

	if (status[0] > QM6_FIFO_FRAMES)
		return QM6_EIO;

	n = status[0];
	if (n > max)
		n = max;

	done = 0u;
	while (done < n) {
		size_t frames = n - done;
		size_t i;

		if (frames > FRAMES_PER_BURST)
			frames = FRAMES_PER_BURST;

		if (reg_read(QM6_REG_FIFO_DATA, buf, frames * QM6_FRAME_BYTES) != I2C_OK)
			return QM6_EIO;

		for (i = 0u; i < frames; i++) {
			const uint8_t *f = &buf[i * QM6_FRAME_BYTES];
			struct qm6_sample *s = &out[done + i];

			s->x_mg = raw_to_mg(be16(&f[0]), s_range);
			s->y_mg = raw_to_mg(be16(&f[2]), s_range);
			s->z_mg = raw_to_mg(be16(&f[4]), s_range);
		}
		done += frames;
	}

	return (int)n;
}
