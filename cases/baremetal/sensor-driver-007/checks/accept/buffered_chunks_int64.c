/*
 * VB-3 logger: QM-6 FIFO driver. Copies the frames to drain into one
 * frame-aligned staging buffer (chunks of whole frames, at most 30 bytes),
 * then converts the whole buffer with 64-bit arithmetic.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qm6.h"

enum { CHUNK_FRAMES = 5, STAGE_BYTES = QM6_FIFO_FRAMES * QM6_FRAME_BYTES };

static struct {
	bool ready;
	uint8_t range;
	uint8_t stage[STAGE_BYTES];
} drv;

static bool reg_write(uint8_t reg, uint8_t value)
{
	const uint8_t tx[2] = { reg, value };

	return i2c_write_read(QM6_ADDR, tx, sizeof tx, NULL, 0u) == I2C_OK;
}

static bool reg_read(uint8_t reg, uint8_t *dst, size_t len)
{
	return i2c_write_read(QM6_ADDR, &reg, 1u, dst, len) == I2C_OK;
}

int qm6_init(uint8_t range, uint8_t watermark)
{
	uint8_t who = 0u;

	if (range > 3u || watermark == 0u || watermark > 32u) {
		return QM6_EINVAL;
	}
	drv.ready = false;
	if (!reg_read(QM6_REG_WHO_AM_I, &who, 1u)) {
		return QM6_EIO;
	}
	if (who != QM6_WHO_AM_I) {
		return QM6_EID;
	}
	if (!reg_write(QM6_REG_CTRL, 0x00u)) {
		return QM6_EIO;
	}
	if (!reg_write(QM6_REG_FIFO_FLUSH, QM6_FLUSH)) {
		return QM6_EIO;
	}
	if (!reg_write(QM6_REG_FIFO_WTM, watermark)) {
		return QM6_EIO;
	}
	if (!reg_write(QM6_REG_CTRL, QM6_CTRL_RUN | range)) {
		return QM6_EIO;
	}
	drv.range = range;
	drv.ready = true;
	return QM6_OK;
}

static int32_t milli_g(const uint8_t *be)
{
	int16_t raw = (int16_t)(uint16_t)((be[0] << 8) | be[1]);
	int64_t num = (int64_t)raw * 2000 * ((int64_t)1 << drv.range);

	if (num >= 0) {
		return (int32_t)((num + 16384) / 32768);
	}
	return (int32_t)-((-num + 16384) / 32768);
}

int qm6_drain(struct qm6_sample *out, size_t max)
{
	uint8_t st[2];
	size_t frames, copied;

	if (out == NULL || max == 0u) {
		return QM6_EINVAL;
	}
	if (!drv.ready) {
		return QM6_ESTATE;
	}
	if (!reg_read(QM6_REG_FIFO_STATUS1, st, 2u)) {
		return QM6_EIO;
	}
	if ((st[1] & QM6_STATUS2_OVR) != 0u) {
		return reg_write(QM6_REG_FIFO_FLUSH, QM6_FLUSH) ? QM6_EOVERRUN : QM6_EIO;
	}
	if (st[0] > QM6_FIFO_FRAMES) {
		return QM6_EIO;
	}
	frames = (max < st[0]) ? max : st[0];

	for (copied = 0u; copied < frames;) {
		size_t chunk = frames - copied;

		if (chunk > CHUNK_FRAMES) {
			chunk = CHUNK_FRAMES;
		}
		if (!reg_read(QM6_REG_FIFO_DATA, &drv.stage[copied * QM6_FRAME_BYTES], chunk * QM6_FRAME_BYTES)) {
			return QM6_EIO;
		}
		copied += chunk;
	}
	for (size_t i = 0u; i < frames; i++) {
		const uint8_t *f = &drv.stage[i * QM6_FRAME_BYTES];

		out[i] = (struct qm6_sample){ milli_g(f), milli_g(f + 2), milli_g(f + 4) };
	}
	return (int)frames;
}
