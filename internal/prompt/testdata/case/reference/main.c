#include <zephyr/kernel.h>

int main(void)
{
	volatile int x = 0;
	return x;
}
