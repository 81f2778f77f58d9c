/* UBSan defaults for the test build (not part of the answer). */
const char *__ubsan_default_options(void);

const char *__ubsan_default_options(void)
{
	return "exitcode=98:halt_on_error=1:print_stacktrace=1";
}
