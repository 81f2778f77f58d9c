/*
 * hx20.h - driver of the HX-20 humidity and temperature sensor of the
 * GL-4 greenhouse logger, on the logger's I2C bus.
 *
 * The I2C transfer and the delay are provided by the platform, not by you.
 */
#ifndef HX20_H
#define HX20_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------- platform (provided) */

#define I2C_OK     0
#define I2C_ENACK  (-1)   /* the device did not acknowledge */

/*
 * One I2C transaction with the device at 7-bit address addr: writes wlen
 * bytes from wr, then (when rlen > 0) reads rlen bytes into rd. Returns
 * I2C_OK or I2C_ENACK; after I2C_ENACK the content of rd is undefined.
 */
int i2c_write_read(uint8_t addr, const uint8_t *wr, size_t wlen, uint8_t *rd, size_t rlen);

/* Waits ms milliseconds. */
void delay_ms(uint32_t ms);

/* ---------------------------------------------- HX-20 */

#define HX20_ADDR          0x44u   /* 7-bit I2C address */

#define HX20_CMD_RESET     0xB6u   /* write only */
#define HX20_CMD_READ_ID   0x0Fu   /* then read 3 bytes: id MSB, id LSB, CRC */
#define HX20_CMD_START     0x5Cu   /* write only: start one measurement */
#define HX20_CMD_FETCH     0x7Eu   /* then read 6 bytes: T MSB, T LSB, CRC, RH MSB, RH LSB, CRC */

#define HX20_CHIP_ID       0x5A31u

#define HX20_CRC_POLY      0x2Fu   /* CRC-8, MSB first */
#define HX20_CRC_INIT      0xFFu

#define HX20_RESET_MS      2u      /* the device NACKs everything for 2 ms after a reset */
#define HX20_MAX_FETCHES   20u     /* polling limit of one measurement */

/* ---------------------------------------------- driver (yours) */

#define HX20_OK         0
#define HX20_EINVAL   (-1)   /* NULL argument */
#define HX20_ENACK    (-2)   /* a command was not acknowledged */
#define HX20_ECRC     (-3)   /* a received word failed its CRC */
#define HX20_EID      (-4)   /* the chip id is not HX20_CHIP_ID */
#define HX20_ETIMEOUT (-5)   /* no data after HX20_MAX_FETCHES fetches */
#define HX20_ESTATE   (-6)   /* hx20_measure before a successful hx20_init */

struct hx20_sample {
	int32_t temp_mc;       /* temperature, milli-degrees Celsius */
	uint16_t rh_centi;     /* relative humidity, hundredths of a percent (0 .. 10000) */
};

/* Resets the sensor and checks its id. */
int hx20_init(void);

/* Performs one measurement and converts it into *out. */
int hx20_measure(struct hx20_sample *out);

#endif /* HX20_H */
