/* Firmware that never prints and never exits: the run must be stopped at its
 * timeout and fail on the missing expected output. */
int main(void)
{
	for (;;) {
		__asm__ volatile("nop");
	}
}
