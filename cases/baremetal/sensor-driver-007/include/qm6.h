/*
 * qm6.h - driver of the QM-6 three-axis accelerometer of the VB-3 vibration
 * logger, on the logger's I2C bus. The sensor samples continuously into a
 * FIFO of 32 frames; the driver empties it in bursts.
 *
 * The I2C transfer is provided by the platform, not by you.
 */
#ifndef QM6_H
#define QM6_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------- platform (provided) */

#define I2C_OK        0
#define I2C_ENACK     (-1)   /* the device did not acknowledge */
#define I2C_ETOOLONG  (-2)   /* rlen > I2C_MAX_READ: nothing was transferred */

#define I2C_MAX_READ  32u    /* most bytes one transaction can read */

/*
 * One I2C transaction with the device at 7-bit address addr: writes wlen
 * bytes from wr, then (when rlen > 0) reads rlen bytes into rd. Returns
 * I2C_OK, I2C_ENACK or I2C_ETOOLONG; after an error the content of rd is
 * undefined.
 */
int i2c_write_read(uint8_t addr, const uint8_t *wr, size_t wlen, uint8_t *rd, size_t rlen);

/* ---------------------------------------------- QM-6 */

#define QM6_ADDR           0x6Au   /* 7-bit I2C address */

/* Registers. Reading: write the register address, read n bytes in the same
 * transaction; a read of n > 1 bytes continues with the following registers,
 * except at QM6_REG_FIFO_DATA, where every byte read is the next FIFO byte.
 * Writing: one transaction writing the register address and the value. */
#define QM6_REG_WHO_AM_I   0x0Fu   /* read: 0xC6 on a QM-6 */
#define QM6_REG_CTRL       0x10u   /* write: bit 7 RUN (sampling on), bits 1:0 RANGE */
#define QM6_REG_FIFO_STATUS1 0x3Au /* read: complete frames in the FIFO (0..32) */
#define QM6_REG_FIFO_STATUS2 0x3Bu /* read: bit 7 OVR, bit 6 WTM */
#define QM6_REG_FIFO_FLUSH 0x3Cu   /* write 0x01: empty the FIFO, clear OVR */
#define QM6_REG_FIFO_WTM   0x3Du   /* write: watermark, 1..32 frames */
#define QM6_REG_FIFO_DATA  0x3Eu   /* read: FIFO bytes, oldest first */

#define QM6_WHO_AM_I       0xC6u
#define QM6_CTRL_RUN       0x80u
#define QM6_STATUS2_OVR    0x80u
#define QM6_STATUS2_WTM    0x40u
#define QM6_FLUSH          0x01u

#define QM6_FIFO_FRAMES    32u     /* FIFO capacity */
#define QM6_FRAME_BYTES    6u      /* X MSB, X LSB, Y MSB, Y LSB, Z MSB, Z LSB */

/* ---------------------------------------------- driver (yours) */

#define QM6_OK         0
#define QM6_EINVAL   (-1)   /* bad argument */
#define QM6_EIO      (-2)   /* a transaction failed, or the device reported nonsense */
#define QM6_EID      (-3)   /* WHO_AM_I is not QM6_WHO_AM_I */
#define QM6_ESTATE   (-4)   /* qm6_drain before a successful qm6_init */
#define QM6_EOVERRUN (-5)   /* the FIFO overflowed: its content was discarded */

struct qm6_sample {
	int32_t x_mg;   /* acceleration, milli-g */
	int32_t y_mg;
	int32_t z_mg;
};

/* Checks the device and starts sampling with the given range (0..3: ±2, ±4,
 * ±8, ±16 g) and FIFO watermark (1..32 frames). */
int qm6_init(uint8_t range, uint8_t watermark);

/* Moves up to max frames from the FIFO into out[], oldest first, converted.
 * Returns the number of samples stored (0..max) or a negative QM6_E* code. */
int qm6_drain(struct qm6_sample *out, size_t max);

#endif /* QM6_H */
