#include <string.h>

#include "image_source.h"

/* Stand-in for the transport: a staged image buffer filled elsewhere. */
static const uint8_t staged_image[4096];
static size_t read_pos;

size_t image_source_size(void)
{
	return sizeof(staged_image);
}

int image_source_read(uint8_t *buf, size_t max)
{
	size_t left = sizeof(staged_image) - read_pos;
	size_t n = left < max ? left : max;

	memcpy(buf, staged_image + read_pos, n);
	read_pos += n;
	return (int)n;
}
