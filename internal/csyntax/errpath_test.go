package csyntax

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/errconv"
)

// errRules are the embedded error conventions (data/error_conventions.yaml).
func errRules(t testing.TB) ErrorRules {
	t.Helper()
	c, err := errconv.Default()
	require.NoError(t, err)
	return ErrorRules{Vocabulary: c}
}

// errorSites parses code and judges the calls of call.
func errorSites(t testing.TB, code, call string, rules ErrorRules) []ErrorSite {
	t.Helper()
	return parse(t, code).ErrorSites(call, rules)
}

// returnAfterError parses code and asks ReturnAfterError.
func returnAfterError(t testing.TB, code, call string, rules ErrorRules) bool {
	t.Helper()
	return parse(t, code).ReturnAfterError(call, rules)
}

func wrapFn(body string) string {
	return "int setup(void)\n{\n" + body + "\n\treturn 0;\n}\n"
}

// TestErrorSites holds every case of the token scanner's error-path judge
// (ctext.ErrorHandlingReport) this judge replaces, with the same
// expectations.
func TestErrorSites(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		call    string
		handled []bool
		reason  string // reason of the first site
	}{
		{"if less than zero block", "\tif (gpio_pin_configure_dt(&led, GPIO_OUTPUT) < 0) {\n\t\tLOG_ERR(\"x\");\n\t\treturn -EIO;\n\t}", "gpio_pin_configure_dt", []bool{true}, "result is tested by an if and the failure path leaves"},
		{"if bare single statement", "\tif (init_hw())\n\t\treturn -1;", "init_hw", []bool{true}, ""},
		{"if negated bool", "\tif (!device_is_ready(dev)) {\n\t\treturn -ENODEV;\n\t}", "device_is_ready", []bool{true}, ""},
		{"goto", "\tif (clk_prepare_enable(clk))\n\t\tgoto err;\nerr:\n\treturn -1;", "clk_prepare_enable", []bool{true}, ""},
		{"if without leaving", "\tif (init_hw() < 0) {\n\t\tLOG_ERR(\"failed\");\n\t}", "init_hw", []bool{false}, "result is tested by an if but the failure path does not return or goto"},
		{"success polarity with else", "\tif (init_hw() == 0) {\n\t\tLOG_INF(\"ok\");\n\t} else {\n\t\treturn -EIO;\n\t}", "init_hw", []bool{true}, ""},
		{"success polarity only then leaves", "\tif (init_hw() == 0) {\n\t\tLOG_INF(\"ok\");\n\t\treturn 0;\n\t}\n\ta();\n\tb();", "init_hw", []bool{false}, ""},
		{"success polarity then failure path after", "\tif (init_hw() >= 0) {\n\t\treturn 0;\n\t}\n\tLOG_ERR(\"bad\");\n\treturn -EIO;", "init_hw", []bool{true}, ""},
		{"assignment then check", "\tint ret = gpio_pin_configure_dt(&led, GPIO_OUTPUT);\n\tif (ret < 0) {\n\t\treturn ret;\n\t}", "gpio_pin_configure_dt", []bool{true}, "ret is tested by an if and the failure path leaves"},
		{"esp_err_t not ok", "\tesp_err_t err = nvs_flash_init();\n\tif (err != ESP_OK) {\n\t\tESP_LOGE(TAG, \"x\");\n\t\treturn err;\n\t}", "nvs_flash_init", []bool{true}, ""},
		{"hal error handler", "\tif (HAL_UART_Init(&huart2) != HAL_OK)\n\t{\n\t\tError_Handler();\n\t}", "HAL_UART_Init", []bool{true}, ""},
		{"IS_ERR", "\tclk = devm_clk_get(dev, NULL);\n\tif (IS_ERR(clk))\n\t\treturn PTR_ERR(clk);", "devm_clk_get", []bool{true}, ""},
		{"two intervening statements", "\tret = spi_write(dev, &tx);\n\tk_busy_wait(10);\n\tcount++;\n\tif (ret) {\n\t\treturn ret;\n\t}", "spi_write", []bool{true}, ""},
		{"three intervening statements", "\tret = spi_write(dev, &tx);\n\ta();\n\tb();\n\tc();\n\tif (ret) {\n\t\treturn ret;\n\t}", "spi_write", []bool{false}, "ret is not checked within the next 3 statements"},
		{"overwritten before check", "\tret = spi_write(dev, &tx);\n\tret = spi_read(dev, &rx);\n\tif (ret) {\n\t\treturn ret;\n\t}", "spi_write", []bool{false}, "ret is overwritten before it is checked"},
		{"stored never checked", "\tret = spi_write(dev, &tx);\n\tLOG_INF(\"done\");", "spi_write", []bool{false}, "function returns before ret is checked"},
		{"assign in condition", "\tif ((ret = i2c_write(dev, buf, 2, 0x40)) < 0) {\n\t\treturn ret;\n\t}", "i2c_write", []bool{true}, ""},
		{"return propagates", "\treturn spi_write(dev, &tx);", "spi_write", []bool{true}, "result propagated by return"},
		{"ret returned", "\tret = spi_write(dev, &tx);\n\treturn ret;", "spi_write", []bool{true}, "ret propagated by return"},
		{"ESP_ERROR_CHECK", "\tESP_ERROR_CHECK(gpio_config(&io_conf));", "gpio_config", []bool{true}, "result checked by ESP_ERROR_CHECK"},
		{"ESP_ERROR_CHECK on variable", "\terr = gpio_config(&io_conf);\n\tESP_ERROR_CHECK(err);", "gpio_config", []bool{true}, "err checked by ESP_ERROR_CHECK"},
		{"ignored", "\tgpio_pin_set_dt(&led, 1);", "gpio_pin_set_dt", []bool{false}, "return value ignored"},
		{"void cast", "\t(void)gpio_pin_set_dt(&led, 1);", "gpio_pin_set_dt", []bool{false}, "return value discarded with (void)"},
		{"in log argument", "\tLOG_INF(\"%d\", gpio_pin_get_dt(&btn));", "gpio_pin_get_dt", []bool{false}, "result of gpio_pin_get_dt is not tested"},
		{"loop condition", "\twhile (uart_poll_in(dev, &c) == 0) {\n\t}", "uart_poll_in", []bool{false}, "result only used as a while condition"},
		{"mixed sites", "\tif (a_init() < 0) {\n\t\treturn -1;\n\t}\n\ta_init();", "a_init", []bool{true, false}, ""},
		{"comment mention ignored", "\t/* i2c_write(dev) unchecked */\n\tif (i2c_write(dev, b, 1, 2)) {\n\t\treturn -EIO;\n\t}", "i2c_write", []bool{true}, ""},
		{"after label", "\tint ret;\nretry:\n\tret = spi_write(dev, &tx);\n\tif (ret < 0) {\n\t\tgoto retry;\n\t}", "spi_write", []bool{true}, ""},
		{"else-if chain", "\tret = spi_write(dev, &tx);\n\tif (ret == -EAGAIN) {\n\t\tk_yield();\n\t} else if (ret < 0) {\n\t\treturn ret;\n\t}", "spi_write", []bool{true}, ""},
		{"never called", "\tk_yield();", "spi_write", nil, ""},
		{"variable only passed to another call", "\tf = fopen(path, \"r\");\n\tif (fgets(buf, sizeof buf, f) == NULL) {\n\t\treturn 1;\n\t}", "fopen", []bool{false}, "function returns before f is checked"},
		{"tested after being passed on", "\tf = fopen(path, \"r\");\n\tif (f == NULL) {\n\t\treturn 1;\n\t}\n\tif (fgets(buf, 8, f) == NULL) {\n\t\treturn 1;\n\t}", "fopen", []bool{true}, "f is tested by an if and the failure path leaves"},
		{"tested inside IS_ERR", "\tclk = devm_clk_get(dev, NULL);\n\tif (unlikely(IS_ERR(clk)))\n\t\treturn PTR_ERR(clk);", "devm_clk_get", []bool{true}, ""},
		{"EINTR retry loop", "\tdo {\n\t\tn = read(fd, buf, 8);\n\t} while (n < 0 && errno == EINTR);\n\tif (n < 0) {\n\t\treturn -1;\n\t}", "read", []bool{true}, "n is tested by an if and the failure path leaves"},
		{"EINTR retry loop never checked", "\tdo {\n\t\tn = read(fd, buf, 8);\n\t} while (n < 0 && errno == EINTR);\n\tuse(buf);", "read", []bool{false}, ""},
		{"array element", "\tfds[1] = signalfd(-1, &m, 0);\n\tif (fds[1] < 0) {\n\t\treturn 1;\n\t}", "signalfd", []bool{true}, "fds is tested by an if and the failure path leaves"},
		{"array element success polarity", "\tfds[0] = timerfd_create(CLOCK_MONOTONIC, 0);\n\tif (fds[0] >= 0) {\n\t\tuse();\n\t}\n\ta();\n\tb();", "timerfd_create", []bool{false}, ""},
		{"switch on the result", "\tst = psa_mac_verify(k, a, m, n, t, l);\n\tswitch (st) {\n\tcase PSA_SUCCESS:\n\t\treturn 1;\n\tdefault:\n\t\treturn (int)st;\n\t}", "psa_mac_verify", []bool{true}, "st is dispatched by a switch whose branches leave"},
		{"switch on the call", "\tswitch (poll_dev()) {\n\tcase 0:\n\t\tbreak;\n\tdefault:\n\t\tgoto fail;\n\t}\nfail:\n\treturn -1;", "poll_dev", []bool{true}, "result is dispatched by a switch whose branches leave"},
		{"switch that never leaves", "\tst = poll_dev();\n\tswitch (st) {\n\tcase 0:\n\t\tok();\n\t\tbreak;\n\tdefault:\n\t\tlog_it();\n\t}", "poll_dev", []bool{false}, "st is dispatched by a switch but no branch returns or goto"},
		{"success branch then the error returned", "\trc = bt_le_scan_start(&p, cb);\n\tif (rc == 0) {\n\t\tprintk(\"scanning\\n\");\n\t} else {\n\t\tprintk(\"failed\\n\");\n\t}\n\treturn rc;", "bt_le_scan_start", []bool{true}, "rc is tested by an if and propagated by the return after it"},
		{"single exit status variable", "\tint rc = -1;\n\tif (HAL_I2C_Mem_Read(&h, 0x90, 0, 1, buf, 2, 10) == HAL_OK) {\n\t\tuse(buf);\n\t\trc = 0;\n\t}\n\treturn rc;", "HAL_I2C_Mem_Read", []bool{true}, ""},
		{"single exit but the status is not returned", "\tint rc = -1;\n\tif (HAL_I2C_Mem_Read(&h, 0x90, 0, 1, buf, 2, 10) == HAL_OK) {\n\t\trc = 0;\n\t}\n\tlog_it(rc);", "HAL_I2C_Mem_Read", []bool{false}, ""},
		{"success then swallowed", "\tif (init_hw() == 0) {\n\t\tok = 1;\n\t}\n\treturn 0;", "init_hw", []bool{false}, ""},
		{"retry loop then failure return", "\tfor (unsigned a = 0; a < 3U; a++) {\n\t\tif (HAL_I2C_IsDeviceReady(&h, 0x90, 1, 5) == HAL_OK) {\n\t\t\treturn 1;\n\t\t}\n\t}\n\treturn 0;", "HAL_I2C_IsDeviceReady", []bool{true}, ""},
		{"retry loop without a failure exit", "\tfor (unsigned a = 0; a < 3U; a++) {\n\t\tif (HAL_I2C_IsDeviceReady(&h, 0x90, 1, 5) == HAL_OK) {\n\t\t\treturn 1;\n\t\t}\n\t}\n\tlog_it();\n\tuse();\n\tdone();", "HAL_I2C_IsDeviceReady", []bool{false}, ""},
		{"result returned after the enclosing if", "\tint err = -EINVAL;\n\tif (active) {\n\t\terr = flash_img_buffered_write(&ctx, d, n, false);\n\t}\n\treturn err;", "flash_img_buffered_write", []bool{true}, "err propagated by return"},
		{"result dropped after the enclosing if", "\tif (active) {\n\t\terr = flash_img_buffered_write(&ctx, d, n, false);\n\t}\n\treturn 0;", "flash_img_buffered_write", []bool{false}, ""},
		{"tested in a nested if then returned", "\tif (active) {\n\t\tif (bad) {\n\t\t\terr = -EINVAL;\n\t\t} else {\n\t\t\terr = flash_img_buffered_write(&ctx, d, n, false);\n\t\t}\n\t\tif (err == 0) {\n\t\t\tdone += n;\n\t\t} else {\n\t\t\tactive = false;\n\t\t}\n\t}\n\treturn err;", "flash_img_buffered_write", []bool{true}, "err is tested by an if and propagated by the return after it"},
		{"status set in a bare block", "\tpsa_status_t st;\n\t{\n\t\tst = psa_import_key(&a, key, 16, &id);\n\t\tzeroize(key);\n\t}\n\tif (st != PSA_SUCCESS) {\n\t\treturn 1;\n\t}", "psa_import_key", []bool{true}, "st is tested by an if and the failure path leaves"},
		{"status declared in a bare block", "\tpsa_status_t st = 0;\n\t{\n\t\tpsa_status_t st = psa_import_key(&a, key, 16, &id);\n\t\tzeroize(key);\n\t}\n\tif (st != PSA_SUCCESS) {\n\t\treturn 1;\n\t}", "psa_import_key", []bool{false}, ""},
		{"declared in an if body", "\tif (on) {\n\t\tint err = flash_img_buffered_write(&ctx, d, n, false);\n\t}\n\treturn err;", "flash_img_buffered_write", []bool{false}, ""},
		{"continue in a loop", "\tfor (int i = 0; i < 4; i++) {\n\t\tif (sensor_sample_fetch(dev) < 0) {\n\t\t\tcontinue;\n\t\t}\n\t\tuse(i);\n\t}", "sensor_sample_fetch", []bool{true}, ""},
		{"break in a loop", "\twhile (1) {\n\t\tret = uart_rx(dev);\n\t\tif (ret < 0)\n\t\t\tbreak;\n\t\tuse(ret);\n\t}", "uart_rx", []bool{true}, ""},
		{"break of a nested switch does not leave", "\twhile (1) {\n\t\tif (poll_dev() < 0) {\n\t\t\tswitch (mode) {\n\t\t\tcase 1:\n\t\t\t\tbreak;\n\t\t\t}\n\t\t}\n\t\tk_yield();\n\t}", "poll_dev", []bool{false}, ""},
		{"break outside a loop is not leaving", "\tswitch (mode) {\n\tcase 1:\n\t\tif (init_hw() < 0) {\n\t\t\tbreak;\n\t\t}\n\t\tuse();\n\t}", "init_hw", []bool{false}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code := wrapFn(tt.body)
			sites := errorSites(t, code, tt.call, errRules(t))
			var handled []bool
			for _, s := range sites {
				handled = append(handled, s.Handled)
				require.Equal(t, "setup", s.Function)
			}
			require.Equal(t, tt.handled, handled, "%+v", sites)
			if tt.reason != "" {
				require.Equal(t, tt.reason, sites[0].Reason)
			}
			all := len(handled) > 0
			for _, h := range handled {
				all = all && h
			}
			require.Equal(t, all, returnAfterError(t, code, tt.call, errRules(t)))
		})
	}
}

func TestErrorSitesLinesAndScope(t *testing.T) {
	code := "int spi_write(int x);\nint spi_write(int x)\n{\n\treturn x;\n}\n#define W() spi_write(1)\nint main(void)\n{\n\tspi_write(2);\n\treturn 0;\n}\n"
	sites := errorSites(t, code, "spi_write", errRules(t))
	require.Equal(t, []ErrorSite{{Line: 9, Function: "main", Handled: false, Reason: "return value ignored"}}, sites)
	require.False(t, returnAfterError(t, code, "spi_write", errRules(t)))
	require.False(t, returnAfterError(t, "int x;", "spi_write", errRules(t)))
	require.Equal(t, sites, errorSites(t, code, " spi_write( ", errRules(t)), "a trailing ( names the same call")
	require.Empty(t, errorSites(t, code, "", errRules(t)))
}

func TestFailureBranchCallingAHaltingFunctionLeaves(t *testing.T) {
	code := "static void fatal(void) { for (;;) { } }\nint f(void)\n{\n\tif (init_hw() < 0) {\n\t\tfatal();\n\t}\n\tret = spi_write(d);\n\tif (ret) {\n\t\tdev->fatal();\n\t}\n\treturn 0;\n}\n"
	rules := errRules(t)
	require.False(t, returnAfterError(t, code, "init_hw", rules), "without Halting only the vocabulary's no-return calls leave")
	rules.Halting = NewHaltingCalls()
	sites := errorSites(t, code, "init_hw", rules)
	require.Len(t, sites, 1)
	require.True(t, sites[0].Handled, sites[0].Reason)
	require.False(t, returnAfterError(t, code, "spi_write", rules), "a member call is not the halting function")
}

func TestErrorHandlingTestedOnly(t *testing.T) {
	code := `int f(void)
{
	esp_err_t err = esp_timer_start_periodic(t, 100000);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "start failed: %d", err);
	}
	while (xSemaphoreTake(m, 10) != pdTRUE) {
		retries++;
	}
	esp_timer_stop(t);
	ret = esp_timer_delete(t);
	count++;
	return 0;
}
`
	judge := func(call string, tested bool) (bool, string) {
		rules := errRules(t)
		rules.TestedOnly = tested
		sites := errorSites(t, code, call, rules)
		require.Len(t, sites, 1, call)
		return sites[0].Handled, sites[0].Reason
	}
	ok, why := judge("esp_timer_start_periodic", false)
	assert.False(t, ok, "the failure is only logged: the branch does not leave")
	assert.Contains(t, why, "does not return or goto")
	ok, why = judge("esp_timer_start_periodic", true)
	assert.True(t, ok, why)
	assert.Equal(t, "err is tested by an if", why)
	ok, _ = judge("xSemaphoreTake", false)
	assert.False(t, ok)
	ok, why = judge("xSemaphoreTake", true)
	assert.True(t, ok, why)
	ok, why = judge("esp_timer_stop", true)
	assert.False(t, ok, "an ignored result is not tested either")
	assert.Equal(t, "return value ignored", why)
	ok, _ = judge("esp_timer_delete", true)
	assert.False(t, ok, "stored and never tested")

	more := `int g(const struct device *d)
{
	if (sensor_sample_fetch(d) == 0) {
		show(d);
	}
	int r = sensor_channel_get(d, CH, &v);
	while (r == 0 && n < 10) {
		r = sensor_channel_get(d, CH, &v);
		n++;
	}
	ESP_ERROR_CHECK_WITHOUT_ABORT(esp_timer_stop(t));
	return r;
}
`
	for call, want := range map[string][2]bool{
		"sensor_sample_fetch": {false, true}, // a success test without a failure branch
		"sensor_channel_get":  {false, true}, // a stored result tested by a loop condition
		"esp_timer_stop":      {false, true}, // logged by ESP_ERROR_CHECK_WITHOUT_ABORT, which goes on
	} {
		for i, tested := range []bool{false, true} {
			rules := errRules(t)
			rules.TestedOnly = tested
			sites := errorSites(t, more, call, rules)
			require.NotEmpty(t, sites, call)
			assert.Equal(t, want[i], sites[0].Handled, "%s tested=%v: %s", call, tested, sites[0].Reason)
		}
	}
}

// TestErrorSitesUnreadableMacro: a call inside a macro use the parser cannot
// read is still a site, judged by what can be read around it.
func TestErrorSitesUnreadableMacro(t *testing.T) {
	code := "int f(void)\n{\n" +
		"\tESP_RETURN_ON_ERROR(spi_write(dev), TAG, \"x\" return;);\n" +
		"\tMY_GUARD(spi_write(dev) < 0, return -EIO;);\n" +
		"\tspi_write(dev) @ 3;\n" +
		"\tCALL_IF_READY(dev) spi_write(dev) ?;\n" +
		"\treturn 0;\n}\n"
	f := parse(t, code)
	require.True(t, f.HasErrors(), "the fixture must not parse cleanly")
	sites := f.ErrorSites("spi_write", errRules(t))
	require.Len(t, sites, 4, "%+v", sites)
	for i, s := range sites {
		assert.Equal(t, 3+i, s.Line)
		assert.Equal(t, "f", s.Function)
	}
	assert.Equal(t, ErrorSite{Line: 3, Function: "f", Handled: true, Reason: "result checked by ESP_RETURN_ON_ERROR"}, sites[0])
	for _, s := range sites[1:] {
		assert.False(t, s.Handled, "line %d: %s", s.Line, s.Reason)
	}
	assert.False(t, f.ReturnAfterError("spi_write", errRules(t)))
}

// TestErrorSitesFunctionPointer: a call through a member function pointer
// is judged like a call of that name, its result tested or stored alike; a
// call through (*cb) names no function.
func TestErrorSitesFunctionPointer(t *testing.T) {
	code := "int f(const struct dev *d, int (*cb)(int))\n{\n" +
		"\tif (d->api->spi_write(d, 1) < 0) {\n\t\treturn -EIO;\n\t}\n" +
		"\td->api->spi_write(d, 2);\n" +
		"\tint ret = d->api->spi_write(d, 3);\n" +
		"\tif (ret < 0) {\n\t\treturn ret;\n\t}\n" +
		"\tif ((*cb)(3) < 0) {\n\t\treturn -EIO;\n\t}\n" +
		"\treturn 0;\n}\n"
	sites := errorSites(t, code, "spi_write", errRules(t))
	require.Equal(t, []ErrorSite{
		{Line: 3, Function: "f", Handled: true, Reason: "result is tested by an if and the failure path leaves"},
		{Line: 6, Function: "f", Handled: false, Reason: "return value ignored"},
		{Line: 7, Function: "f", Handled: true, Reason: "ret is tested by an if and the failure path leaves"},
	}, sites)
	assert.Empty(t, errorSites(t, code, "cb", errRules(t)), "(*cb)(3) calls no function named cb")
}

// TestErrorSitesRecursion: a recursive retry propagates its own result, and a
// failure branch that calls a function recursing without a way out leaves
// (with Halting) without the judge looping.
func TestErrorSitesRecursion(t *testing.T) {
	code := "static void hang(void)\n{\n\thang();\n}\n" +
		"int retry(int n)\n{\n" +
		"\tif (n == 0) {\n\t\treturn -1;\n\t}\n" +
		"\tif (spi_write(d) < 0) {\n\t\treturn retry(n - 1);\n\t}\n" +
		"\tif (init_hw() < 0) {\n\t\thang();\n\t}\n" +
		"\treturn 0;\n}\n"
	rules := errRules(t)
	sites := errorSites(t, code, "retry", rules)
	require.Equal(t, []ErrorSite{{Line: 11, Function: "retry", Handled: true, Reason: "result propagated by return"}}, sites)
	assert.True(t, returnAfterError(t, code, "spi_write", rules))
	assert.False(t, returnAfterError(t, code, "init_hw", rules), "without Halting hang() is an ordinary call")
	rules.Halting = NewHaltingCalls()
	assert.True(t, returnAfterError(t, code, "init_hw", rules), "hang() recurses without a way out")
	assert.Equal(t, []ErrorSite{
		{Line: 3, Function: "hang", Handled: false, Reason: "return value ignored"},
		{Line: 14, Function: "retry", Handled: false, Reason: "return value ignored"},
	}, errorSites(t, code, "hang", rules), "the recursive call is a site too")
}

// TestErrorSitesLargeFile judges a file of 5,000 functions, each with one
// site, and logs the time it takes (no timed assertion).
func TestErrorSitesLargeFile(t *testing.T) {
	const n = 5000
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "int f%d(const struct device *dev)\n{\n\tint ret = spi_write(dev, %d);\n\tif (ret < 0) {\n\t\treturn ret;\n\t}\n\tswitch (ret) {\n\tcase 1:\n\t\tbreak;\n\t}\n\treturn 0;\n}\n", i, i)
	}
	f := parse(t, b.String())
	start := time.Now()
	sites := f.ErrorSites("spi_write", errRules(t))
	t.Logf("%d sites in a %d-byte file judged in %s", len(sites), b.Len(), time.Since(start))
	require.Len(t, sites, n)
	for i, s := range sites {
		require.True(t, s.Handled, "f%d: %s", i, s.Reason)
		require.Equal(t, fmt.Sprintf("f%d", i), s.Function)
		require.Equal(t, 12*i+3, s.Line)
	}
}

// TestErrorSitesSample judges the calls of a whole Zephyr application.
func TestErrorSitesSample(t *testing.T) {
	f := parse(t, readTestdata(t, "zephyr_blinky.c"))
	rules := errRules(t)
	assert.True(t, f.ReturnAfterError("gpio_pin_toggle_dt", rules))
	assert.True(t, f.ReturnAfterError("gpio_is_ready_dt", rules), "returned by led_ready")
	assert.True(t, f.ReturnAfterError("led_ready", rules), "if (!led_ready()) return -ENODEV;")
	assert.False(t, f.ReturnAfterError("gpio_pin_configure_dt", rules))
	assert.False(t, f.ReturnAfterError("gpio_init_callback", rules))
	assert.False(t, f.ReturnAfterError("GPIO_DT_SPEC_GET", rules), "a file-scope initializer is no test")
}

// TestErrorSitesDeepNesting: nesting far deeper than the judge follows
// neither overflows nor hangs, and a leaving statement at the bottom still
// counts.
func TestErrorSitesDeepNesting(t *testing.T) {
	code := "int f(void)\n{\n\tret = foo();\n" + strings.Repeat("if (ret) ", 50000) + "return 1;\n" +
		strings.Repeat("(", 50000) + strings.Repeat("{", 50000) + "\n}\n"
	sites := errorSites(t, code, "foo", errRules(t))
	require.Len(t, sites, 1)
	require.True(t, sites[0].Handled, sites[0].Reason)

	deep := "int f(void)\n{\n" + strings.Repeat("if (x) {\n", 1000) + "if (foo() < 0) return 1;\n" + strings.Repeat("}\n", 1000) + "return 0;\n}\n"
	sites = errorSites(t, deep, "foo", errRules(t))
	require.Equal(t, []ErrorSite{{Line: 1003, Function: "f", Handled: false, Reason: "result of foo is not tested"}}, sites,
		"a call nested deeper than the judge follows is reported, not judged")
}

func FuzzErrorSites(f *testing.F) {
	f.Add("int f(void)\n{\n\tret = foo();\n\tif (ret < 0) {\n\t\treturn ret;\n\t}\n\treturn 0;\n}\n", false)
	f.Add("if(", true)
	f.Add("void f(", false)
	f.Add("}{)(", false)
	f.Add("ret = foo(); if (ret", true)
	f.Add("int foo(a) int a; {", false)
	f.Add("int f(void) { do { n = foo(); } while (n < 0); switch (n) { case 1: out: return n; } }", false)
	f.Fuzz(func(t *testing.T, code string, tested bool) {
		file, err := Parse(code)
		require.NoError(t, err)
		defer file.Close()
		lines := strings.Count(code, "\n") + 1
		rules := errRules(t)
		rules.TestedOnly = tested
		rules.Halting = NewHaltingCalls("abort")
		for _, s := range file.ErrorSites("foo", rules) {
			if s.Line < 1 || s.Line > lines || s.Reason == "" {
				t.Fatalf("bad site %+v", s)
			}
		}
	})
}
