#pragma once

#include <stddef.h>
#include <stdint.h>

/* Total size in bytes of the image that image_source_read() delivers. */
size_t image_source_size(void);

/* Copies up to max bytes of the image into buf. Returns the number of bytes
 * copied, 0 at the end of the image, or a negative value on a read error. */
int image_source_read(uint8_t *buf, size_t max);
