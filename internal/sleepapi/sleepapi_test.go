package sleepapi

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/cexpr"
)

func TestDefault(t *testing.T) {
	v, err := Default()
	require.NoError(t, err)
	for name, class := range map[string]string{
		"k_msleep": ClassSleep, "k_sleep": ClassSleep, "vTaskDelay": ClassSleep, "xTaskDelayUntil": ClassSleep,
		"osDelay": ClassSleep, "HAL_Delay": ClassSleep, "msleep": ClassSleep, "usleep_range": ClassSleep,
		"schedule_timeout": ClassSleep, "nanosleep": ClassSleep, "clock_nanosleep": ClassSleep,
		"k_busy_wait": ClassBusyWait, "esp_rom_delay_us": ClassBusyWait, "ets_delay_us": ClassBusyWait,
		"udelay": ClassBusyWait, "ndelay": ClassBusyWait, "mdelay": ClassBusyWait,
	} {
		a, ok := v.API(name)
		require.True(t, ok, name)
		assert.Equal(t, class, a.Class, name)
	}
	for _, name := range []string{"k_sem_take", "k_yield", "delay", "K_MSEC", "pdMS_TO_TICKS"} {
		_, ok := v.API(name)
		assert.False(t, ok, "%s is not a waiting call", name)
	}
	for _, a := range v.APIs() {
		assert.NotEmpty(t, a.Source, a.Name)
		assert.Positive(t, a.Line, a.Name)
	}
	b := data.SleepAPIsYAML()
	b[0] = '!'
	assert.NotEqual(t, byte('!'), data.SleepAPIsYAML()[0], "callers must get a copy")
}

func TestLoadRejects(t *testing.T) {
	const sections = "clocks: []\nconverters: []\ntimeouts: []\n"
	tests := map[string]string{
		"":                               "empty document",
		"- a\n":                          "t.yaml:1: want a mapping",
		"calls: []\n":                    `t.yaml:1: unknown top-level key "calls"`,
		"clocks: []\nclocks: []\n":       "t.yaml:2: duplicate top-level key clocks",
		"clocks: {}\n":                   "t.yaml:1: clocks: want a list",
		"clocks: []\n":                   "missing top-level key converters",
		sections + "apis:\n  - k_msleep": "t.yaml:5: apis[0]: want a mapping",
		sections + "apis:\n  - name: k_msleep\n    class: sleep\n    kind: relative\n    unit: ms\n    arg: 0\n":                                                                         "apis[0]: k_msleep has no source",
		sections + "apis:\n  - name: k msleep\n    source: x\n":                                                                                                                          `apis[0]: name "k msleep" is not a C identifier`,
		sections + "apis:\n  - name: f\n    source: x\n    colour: red\n":                                                                                                                `t.yaml:7: apis[0]: unknown key "colour"`,
		sections + "apis:\n  - name: f\n    source: x\n    class: nap\n":                                                                                                                 `apis[0]: class "nap" is not one of sleep, busy_wait`,
		sections + "apis:\n  - name: f\n    source: x\n    class: sleep\n    kind: soon\n":                                                                                               `apis[0]: kind "soon" is not one of relative, absolute`,
		sections + "apis:\n  - name: f\n    source: x\n    class: sleep\n    kind: relative\n    unit: days\n":                                                                           `apis[0]: unit "days" is not one of`,
		sections + "apis:\n  - name: f\n    source: x\n    class: busy_wait\n    kind: relative\n":                                                                                       "apis[0]: a busy_wait has no kind",
		sections + "apis:\n  - name: f\n    source: x\n    class: sleep\n    kind: relative\n    unit: ticks\n    arg: 0\n":                                                              `unit ticks needs the clock of a clocks entry, got ""`,
		sections + "apis:\n  - name: f\n    source: x\n    class: sleep\n    kind: relative\n    unit: ms\n    clock: c\n    arg: 0\n":                                                   "clock is only for unit ticks",
		sections + "apis:\n  - name: f\n    source: x\n    class: sleep\n    kind: relative\n    unit: ms\n":                                                                             "apis[0]: f has no arg",
		sections + "apis:\n  - name: f\n    source: x\n    class: sleep\n    kind: relative\n    unit: ms\n    arg: -1\n":                                                                "apis[0]: arg must be a non-negative integer",
		sections + "apis:\n  - name: f\n    source: x\n    class: sleep\n    kind: relative\n    unit: ms\n    arg: 0\n    flags_arg: 1\n":                                               "absolute_flag (a C identifier) and flags_arg go together",
		sections + "apis:\n  - name: f\n    source: x\n    class: busy_wait\n    unit: us\n    arg: 0\n  - name: f\n    source: y\n":                                                     `apis[1]: duplicate name "f" (first at line 5)`,
		"clocks:\n  - name: c\n    rate: \"1 k\"\n    source: x\nconverters: []\ntimeouts: []\napis: []\n":                                                                               `clocks[0]: rate "1 k" is not a C identifier`,
		"clocks:\n  - name: c\n    rate: HZ\n    forever: MAX\n    source: x\nconverters: []\ntimeouts: []\napis: []\n":                                                                  "clocks[0]: forever must be a list of names",
		"clocks: []\nconverters: []\ntimeouts:\n  - name: K_NO_WAIT\n    ms: 0\n    unit: ms\n    source: x\napis: []\n":                                                                 "ms is for an object-like relative timeout, without unit",
		"clocks: []\nconverters: []\ntimeouts:\n  - name: K_FOREVER\n    kind: forever\n    unit: ms\n    source: x\napis: []\n":                                                         "a forever timeout has no unit",
		"clocks: []\nconverters:\n  - name: pdMS_TO_TICKS\n    unit: ms\n    clock: freertos\n    source: x\ntimeouts: []\napis: []\n":                                                   `got "freertos"`,
		"clocks: []\nconverters: []\ntimeouts:\n  - name: K_MSEC\n    unit: ms\n    source: x\napis:\n  - name: K_MSEC\n    class: busy_wait\n    unit: us\n    arg: 0\n    source: y\n": "K_MSEC is already a clock macro, converter or timeout",
		"clocks: [\n": "t.yaml: yaml:",
	}
	for doc, msg := range tests {
		_, err := Load([]byte(doc), "t.yaml")
		require.Error(t, err, doc)
		assert.Contains(t, err.Error(), msg, doc)
	}
	v, err := Load([]byte(sections+"apis:\n  - name: nap\n    class: sleep\n    kind: relative\n    unit: s\n    arg: 1\n    source: \"app.h\"\n"), "t.yaml")
	require.NoError(t, err)
	assert.Equal(t, []API{{Name: "nap", Class: ClassSleep, Kind: Relative, Unit: "s", Arg: 1, Source: "app.h", Line: 5}}, v.APIs())
}

// waitOf evaluates a call to api with args in code's macros and enum-free
// constants (objects: NAME=text pairs).
func waitOf(t *testing.T, api string, args []string, objects map[string]string, funcs map[string]cexpr.FuncMacro) Wait {
	t.Helper()
	v, err := Default()
	require.NoError(t, err)
	a, ok := v.API(api)
	require.True(t, ok, api)
	return v.Wait(a, args, v.NewEnv(cexpr.Env{Objects: objects, Functions: funcs}), nil)
}

// ms renders a Wait as "kind ms ticks" ("-" for nil) for compact tables.
func (w Wait) String() string {
	ms, ticks := "-", "-"
	if w.MS != nil {
		ms = w.MS.RatString()
	}
	if w.Ticks != nil {
		ticks = w.Ticks.String()
	}
	return strings.TrimSpace(w.Kind + " " + ms + " " + ticks)
}

func TestWaitFamilies(t *testing.T) {
	objects := map[string]string{"PERIOD_MS": "500", "BLINK": "K_MSEC(PERIOD_MS / 2)", "N": "3U", "BROKEN": "(((", "LOOP": "LOOP + 1"}
	funcs := map[string]cexpr.FuncMacro{
		"DELAY":  {Params: []string{"ms"}, Body: "K_MSEC((ms) * 2)"},
		"TWICE":  {Params: []string{"x"}, Body: "TWICE(x) TWICE(x)"},
		"TICKMS": {Params: []string{"ms"}, Body: "pdMS_TO_TICKS(ms)"},
	}
	tests := []struct {
		api  string
		args []string
		want string
	}{
		// Zephyr.
		{"k_msleep", []string{"PERIOD_MS"}, "relative 500 -"},
		{"k_msleep", []string{"(int32_t)(PERIOD_MS * N)"}, "relative 1500 -"},
		{"k_msleep", []string{"UNKNOWN_MS"}, "relative - -"},
		{"k_msleep", []string{"BROKEN"}, "relative - -"},
		{"k_msleep", []string{"LOOP"}, "relative - -"},
		{"k_usleep", []string{"250"}, "relative 1/4 -"},
		{"k_sleep", []string{"K_MSEC(2*PERIOD_MS)"}, "relative 1000 -"},
		{"k_sleep", []string{"K_SECONDS(2)"}, "relative 2000 -"},
		{"k_sleep", []string{"K_MINUTES(1)"}, "relative 60000 -"},
		{"k_sleep", []string{"K_HOURS(1)"}, "relative 3600000 -"},
		{"k_sleep", []string{"K_USEC(1500)"}, "relative 3/2 -"},
		{"k_sleep", []string{"K_NSEC(1000)"}, "relative 1/1000 -"},
		{"k_sleep", []string{"K_TICKS(10)"}, "relative - 10"},
		{"k_sleep", []string{"K_NO_WAIT"}, "relative 0 -"},
		{"k_sleep", []string{"K_FOREVER"}, "forever - -"},
		{"k_sleep", []string{"(K_FOREVER)"}, "forever - -"},
		{"k_sleep", []string{"K_TIMEOUT_ABS_MS(100)"}, "absolute - -"},
		{"k_sleep", []string{"BLINK"}, "relative 250 -"},
		{"k_sleep", []string{"DELAY(100)"}, "relative 200 -"},
		{"k_sleep", []string{"TWICE(1)"}, "relative - -"},
		{"k_sleep", []string{"timeout"}, "relative - -"},
		{"k_sleep", []string{"K_MSEC(x)"}, "relative - -"},
		{"k_sleep", []string{"K_MSEC(1) + 1"}, "relative - -"},
		{"k_sleep", nil, "relative - -"},
		// FreeRTOS, ESP-IDF, CMSIS-RTOS2.
		{"vTaskDelay", []string{"pdMS_TO_TICKS(500)"}, "relative 500 -"},
		{"vTaskDelay", []string{"pdMS_TO_TICKS(5)"}, "relative 5 -"},
		{"vTaskDelay", []string{"500 / portTICK_PERIOD_MS"}, "relative 500 -"},
		{"vTaskDelay", []string{"(TickType_t)(PERIOD_MS / portTICK_RATE_MS)"}, "relative 500 -"},
		{"vTaskDelay", []string{"configTICK_RATE_HZ / 2"}, "relative 500 -"},
		{"vTaskDelay", []string{"2 * pdMS_TO_TICKS(250)"}, "relative 500 -"},
		{"vTaskDelay", []string{"TICKMS(40)"}, "relative 40 -"},
		{"vTaskDelay", []string{"100"}, "relative - 100"},
		{"vTaskDelay", []string{"N"}, "relative - 3"},
		{"vTaskDelay", []string{"pdMS_TO_TICKS(100) + 5"}, "relative - -"},
		{"vTaskDelay", []string{"portMAX_DELAY"}, "forever - -"},
		{"vTaskDelay", []string{"pdMS_TO_TICKS(period)"}, "relative - -"},
		{"vTaskDelayUntil", []string{"&last", "pdMS_TO_TICKS(20)"}, "absolute 20 -"},
		{"xTaskDelayUntil", []string{"&last", "10"}, "absolute - 10"},
		{"osDelay", []string{"100"}, "relative - 100"},
		{"osDelay", []string{"osWaitForever"}, "forever - -"},
		{"osDelayUntil", []string{"tick + 100"}, "absolute - -"},
		{"HAL_Delay", []string{"PERIOD_MS"}, "relative 500 -"},
		{"esp_rom_delay_us", []string{"10"}, "1/100 -"},
		// Linux.
		{"msleep", []string{"20"}, "relative 20 -"},
		{"ssleep", []string{"2"}, "relative 2000 -"},
		{"usleep_range", []string{"1000", "2000"}, "relative 1 -"},
		{"fsleep", []string{"50"}, "relative 1/20 -"},
		{"schedule_timeout", []string{"msecs_to_jiffies(20)"}, "relative 20 -"},
		{"schedule_timeout", []string{"usecs_to_jiffies(500)"}, "relative 1/2 -"},
		{"schedule_timeout", []string{"secs_to_jiffies(3)"}, "relative 3000 -"},
		{"schedule_timeout", []string{"HZ / 10"}, "relative 100 -"},
		{"schedule_timeout", []string{"2 * HZ"}, "relative 2000 -"},
		{"schedule_timeout", []string{"10"}, "relative - 10"},
		{"schedule_timeout_interruptible", []string{"MAX_SCHEDULE_TIMEOUT"}, "forever - -"},
		{"udelay", []string{"3"}, "3/1000 -"},
		{"ndelay", []string{"100"}, "1/10000 -"},
		{"mdelay", []string{"2"}, "2 -"},
		// POSIX and C11.
		{"sleep", []string{"1"}, "relative 1000 -"},
		{"usleep", []string{"1500"}, "relative 3/2 -"},
		{"nanosleep", []string{"&(struct timespec){ .tv_sec = 1, .tv_nsec = 500000000 }", "NULL"}, "relative 1500 -"},
		{"nanosleep", []string{"&ts", "NULL"}, "relative - -"},
		{"thrd_sleep", []string{"&(struct timespec){.tv_nsec = 1000000}", "NULL"}, "relative 1 -"},
		{"clock_nanosleep", []string{"CLOCK_MONOTONIC", "0", "&(struct timespec){ 0, 2000000 }", "NULL"}, "relative 2 -"},
		{"clock_nanosleep", []string{"CLOCK_MONOTONIC", "TIMER_ABSTIME", "&next", "NULL"}, "absolute - -"},
	}
	for _, tt := range tests {
		w := waitOf(t, tt.api, tt.args, objects, funcs)
		assert.Equal(t, tt.want, w.String(), "%s(%s)", tt.api, strings.Join(tt.args, ", "))
	}
}

func TestWaitKnownTickRate(t *testing.T) {
	objects := map[string]string{"configTICK_RATE_HZ": "((TickType_t)100)", "HZ": "250", "CONFIG_SYS_CLOCK_TICKS_PER_SEC": "32768"}
	for _, tt := range []struct {
		api, arg, want string
	}{
		{"vTaskDelay", "100", "relative 1000 100"},
		{"vTaskDelay", "pdMS_TO_TICKS(500)", "relative 500 50"},
		// At 100 Hz, 5 ms is 0 ticks: that is the wait the code asks for.
		{"vTaskDelay", "pdMS_TO_TICKS(5)", "relative 0 0"},
		{"vTaskDelay", "500 / portTICK_PERIOD_MS", "relative 500 50"},
		{"schedule_timeout", "5", "relative 20 5"},
		{"schedule_timeout", "msecs_to_jiffies(100)", "relative 100 25"},
		{"k_sleep", "K_TICKS(16384)", "relative 500 16384"},
		{"k_sleep", "K_TICKS(1)", "relative 125/4096 1"},
	} {
		w := waitOf(t, tt.api, []string{tt.arg}, objects, nil)
		assert.Equal(t, tt.want, w.String(), "%s(%s)", tt.api, tt.arg)
	}
	// A rate that is not a positive constant is unknown.
	w := waitOf(t, "vTaskDelay", []string{"100"}, map[string]string{"configTICK_RATE_HZ": "rate_hz"}, nil)
	assert.Equal(t, "relative - 100", w.String())
}

func TestWaitTimespecResolver(t *testing.T) {
	v, err := Default()
	require.NoError(t, err)
	a, _ := v.API("nanosleep")
	env := v.NewEnv(cexpr.Env{Objects: map[string]string{"NS": "250000000"}})
	w := v.Wait(a, []string{"&ts", "NULL"}, env, func(arg string) (string, string, bool) {
		assert.Equal(t, "&ts", arg)
		return "2", "NS", true
	})
	assert.Equal(t, "relative 2250 -", w.String())
	w = v.Wait(a, []string{"&ts", "NULL"}, env, func(string) (string, string, bool) { return "n", "0", true })
	assert.Equal(t, "relative - -", w.String())
}

func TestTimespecFields(t *testing.T) {
	for text, want := range map[string][3]string{
		"{1, 500000000}":                        {"1", "500000000", "ok"},
		"{ .tv_nsec = 5000000 }":                {"0", "5000000", "ok"},
		"{ .tv_sec = 1, 2 }":                    {"1", "2", "ok"},
		"{0}":                                   {"0", "0", "ok"},
		"{}":                                    {"0", "0", "ok"},
		"&(struct timespec){ .tv_sec = 2, }":    {"2", "0", "ok"},
		"&(const struct timespec){ 0, MS(5) }":  {"0", "MS(5)", "ok"},
		"{ .tv_usec = 5 }":                      {"", "", ""},
		"{1, 2, 3}":                             {"", "", ""},
		"&ts":                                   {"", "", ""},
		"{1, 2":                                 {"", "", ""},
		"{ .tv_sec 1 }":                         {"", "", ""},
		"(struct timespec){ .tv_sec = (1, 2) }": {"(1, 2)", "0", "ok"},
		"{ .tv_sec = \"}\" }":                   {"\"}\"", "0", "ok"},
	} {
		sec, nsec, ok := TimespecFields(text)
		okText := ""
		if ok {
			okText = "ok"
		}
		assert.Equal(t, want, [3]string{sec, nsec, okText}, text)
	}
}

func TestWaitHostileMacrosEnd(t *testing.T) {
	// Macros that grow at every level, refer to themselves or do not
	// parse: the evaluation gives up (None), quickly.
	objects := map[string]string{"A": "B B B B", "B": "C C C C", "C": "A A A A", "SELF": "SELF", "BAD": "}{)("}
	funcs := map[string]cexpr.FuncMacro{
		"GROW": {Params: []string{"x"}, Body: "GROW(x x x x)"},
		"K":    {Params: []string{"x"}, Body: "K(K(x))"},
	}
	start := time.Now()
	for _, arg := range []string{"A", "SELF", "BAD", "GROW(1)", "K(1)", strings.Repeat("(", 10000), "K_MSEC(" + strings.Repeat("GROW(", 50)} {
		for _, api := range []string{"k_sleep", "vTaskDelay", "k_msleep"} {
			w := waitOf(t, api, []string{arg}, objects, funcs)
			assert.Nil(t, w.MS, "%s(%s)", api, arg)
		}
	}
	assert.Less(t, time.Since(start), time.Minute, "bounded: a blow-up takes hours, a loaded machine seconds")
}

func TestEnvCachesAndDoesNotModifyTheCodeEnv(t *testing.T) {
	v, err := Default()
	require.NoError(t, err)
	code := cexpr.Env{Objects: map[string]string{"X": "5"}, Functions: map[string]cexpr.FuncMacro{}}
	env := v.NewEnv(code)
	a, _ := v.API("vTaskDelay")
	for range 3 {
		assert.Equal(t, big.NewRat(5, 1), v.Wait(a, []string{"pdMS_TO_TICKS(X)"}, env, nil).MS)
	}
	assert.Equal(t, map[string]string{"X": "5"}, code.Objects, "the vocabulary's macros go to copies")
	assert.Empty(t, code.Functions)
	// A nil environment works too.
	assert.Equal(t, "relative 500 -", v.Wait(a, []string{"pdMS_TO_TICKS(500)"}, v.NewEnv(cexpr.Env{}), nil).String())
}
