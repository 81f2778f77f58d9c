/* Hostile answer: includes a host file so that the compiler quotes it. */
#include "@SECRET_FILE@"

int main(void)
{
	return 0;
}
