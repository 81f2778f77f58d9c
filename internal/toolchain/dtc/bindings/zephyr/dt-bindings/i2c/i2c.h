/* I2C bus speeds for devicetree sources (clock-frequency), as in Zephyr's
 * <zephyr/dt-bindings/i2c/i2c.h>; written for EmbedEval's devicetree
 * overlay compile check. */
#ifndef EMBEDEVAL_DT_BINDINGS_I2C_I2C_H
#define EMBEDEVAL_DT_BINDINGS_I2C_I2C_H

#define I2C_BITRATE_STANDARD 100000
#define I2C_BITRATE_FAST 400000
#define I2C_BITRATE_FAST_PLUS 1000000
#define I2C_BITRATE_HIGH 3400000
#define I2C_BITRATE_ULTRA 5000000

#endif
