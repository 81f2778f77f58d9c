// Linux userspace fixture built by the case's Makefile: formats a fixed
// 128-bit id with libsystemd's sd-id128.
#include <stdio.h>
#include <systemd/sd-id128.h>

int main(void)
{
	sd_id128_t id = SD_ID128_MAKE(00, 11, 22, 33, 44, 55, 66, 77, 88, 99, aa, bb, cc, dd, ee, ff);
	char text[SD_ID128_STRING_MAX];

	printf("id %s\n", sd_id128_to_string(id, text));
	return 0;
}
