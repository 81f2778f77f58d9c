/*
 * QM-6 accelerometer FIFO driver for the VB-3 vibration logger.
 */
#include <stddef.h>
#include <stdint.h>

#include "qm6.h"

#define FRAMES_PER_BURST (I2C_MAX_READ / QM6_FRAME_BYTES)	/* 5 frames, 30 bytes */

static int initialised;
static uint8_t cur_range;

static int write_reg(uint8_t reg, uint8_t val)
{
	uint8_t cmd[2] = { reg, val };

	return i2c_write_read(QM6_ADDR, cmd, 2u, NULL, 0u) == I2C_OK ? QM6_OK : QM6_EIO;
}

static int read_regs(uint8_t reg, uint8_t *buf, size_t n)
{
	return i2c_write_read(QM6_ADDR, &reg, 1u, buf, n) == I2C_OK ? QM6_OK : QM6_EIO;
}

int qm6_init(uint8_t range, uint8_t watermark)
{
	uint8_t id;

	if (range > 3u || watermark < 1u || watermark > QM6_FIFO_FRAMES) {
		return QM6_EINVAL;
	}
	initialised = 0;
	if (read_regs(QM6_REG_WHO_AM_I, &id, 1u) != QM6_OK) {
		return QM6_EIO;
	}
	if (id != QM6_WHO_AM_I) {
		return QM6_EID;
	}
	if (write_reg(QM6_REG_CTRL, 0x00u) != QM6_OK ||
	    write_reg(QM6_REG_FIFO_FLUSH, QM6_FLUSH) != QM6_OK ||
	    write_reg(QM6_REG_FIFO_WTM, watermark) != QM6_OK ||
	    write_reg(QM6_REG_CTRL, (uint8_t)(QM6_CTRL_RUN | range)) != QM6_OK) {
		return QM6_EIO;
	}
	cur_range = range;
	initialised = 1;
	return QM6_OK;
}

/* raw * (2000 << range) / 32768, nearest, halves away from zero */
static int32_t to_mg(int16_t raw)
{
	int32_t p = (int32_t)raw * (int32_t)(2000 << cur_range);
	uint32_t mag = p < 0 ? (uint32_t)(-p) : (uint32_t)p;
	int32_t r = (int32_t)((mag + 16384u) >> 15);

	return p < 0 ? -r : r;
}

static int16_t be16(const uint8_t *b)
{
	return (int16_t)(uint16_t)(((uint16_t)b[0] << 8) | b[1]);
}

int qm6_drain(struct qm6_sample *out, size_t max)
{
	uint8_t status[2];
	uint8_t burst[FRAMES_PER_BURST * QM6_FRAME_BYTES];
	size_t n, done = 0;

	if (out == NULL || max == 0u) {
		return QM6_EINVAL;
	}
	if (!initialised) {
		return QM6_ESTATE;
	}
	if (read_regs(QM6_REG_FIFO_STATUS1, status, 2u) != QM6_OK) {
		return QM6_EIO;
	}
	if (status[1] & QM6_STATUS2_OVR) {
		/* the FIFO is off frame boundaries: throw it all away */
		if (write_reg(QM6_REG_FIFO_FLUSH, QM6_FLUSH) != QM6_OK) {
			return QM6_EIO;
		}
		return QM6_EOVERRUN;
	}
	if (status[0] > QM6_FIFO_FRAMES) {
		return QM6_EIO;
	}
	n = status[0] < max ? status[0] : max;
	while (done < n) {
		size_t k = n - done, i;

		if (k > FRAMES_PER_BURST) {
			k = FRAMES_PER_BURST;
		}
		if (read_regs(QM6_REG_FIFO_DATA, burst, k * QM6_FRAME_BYTES) != QM6_OK) {
			return QM6_EIO;
		}
		for (i = 0; i < k; i++) {
			const uint8_t *f = &burst[i * QM6_FRAME_BYTES];

			out[done + i].x_mg = to_mg(be16(f));
			out[done + i].y_mg = to_mg(be16(f + 2));
			out[done + i].z_mg = to_mg(be16(f + 4));
		}
		done += k;
	}
	return (int)n;
}
