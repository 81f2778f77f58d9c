package forbidden

import (
	"testing"

	"github.com/stretchr/testify/require"
)

const small = `platforms:
  FreeRTOS:
    - vTaskDelay
    - xTaskCreate
  Arduino:
    - digitalWrite
    - "Serial.begin("
  Zephyr:
    - k_msleep
`

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "f.yaml: empty document, want a mapping with key platforms"},
		{"syntax", "platforms: [", "f.yaml: yaml: line 1: did not find expected node content"},
		{"not a mapping", "- a\n", "f.yaml:1: want a mapping with key platforms, found a list"},
		{"unknown top-level key", "platforms: {}\nextra: 1\n", `f.yaml:2: unknown top-level key "extra" (want platforms)`},
		{"missing platforms", "{}\n", "f.yaml:1: missing top-level key platforms"},
		{"platforms not mapping", "platforms:\n  - a\n", "f.yaml:2: platforms: want a mapping of platform names to lists, found a list"},
		{"bucket not a list", "platforms:\n  POSIX: usleep\n", `f.yaml:2: platform "POSIX": want a list of API names, found the string "usleep"`},
		{"bucket null", "platforms:\n  POSIX:\n", `f.yaml:2: platform "POSIX": want a list of API names, found null`},
		{"entry not a string", "platforms:\n  POSIX:\n    - usleep\n    - 42\n", `f.yaml:4: platform "POSIX": entry must be a string, found int 42`},
		{"entry mapping", "platforms:\n  POSIX:\n    - {a: b}\n", `f.yaml:3: platform "POSIX": entry must be a string, found a mapping`},
		{"empty entry", "platforms:\n  POSIX:\n    - \"\"\n", `f.yaml:3: platform "POSIX": empty entry`},
		{"only paren", "platforms:\n  POSIX:\n    - \"(\"\n", `f.yaml:3: platform "POSIX": empty entry`},
		{"duplicate entry", "platforms:\n  POSIX:\n    - usleep\n    - sem_wait\n    - usleep\n", `f.yaml:5: platform "POSIX": duplicate entry "usleep" (first at line 3)`},
		{"duplicate platform", "platforms:\n  POSIX: []\n  POSIX: [a]\n", `f.yaml:3: duplicate platform "POSIX" (first at line 2)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := Load([]byte(tt.in), "f.yaml")
			require.EqualError(t, err, tt.want)
			require.Nil(t, tab)
		})
	}
}

func TestLoadAndQuery(t *testing.T) {
	tab, err := Load([]byte(small), "small.yaml")
	require.NoError(t, err)
	require.Equal(t, []string{"Arduino", "FreeRTOS", "Zephyr"}, tab.Platforms())
	require.Equal(t, []string{"vTaskDelay", "xTaskCreate"}, tab.APIs("FreeRTOS"))
	require.Equal(t, []string{"vTaskDelay", "xTaskCreate"}, tab.APIs("freertos"))
	require.Nil(t, tab.APIs("Nope"))
	apis := tab.APIs("Zephyr")
	apis[0] = "changed"
	require.Equal(t, []string{"k_msleep"}, tab.APIs("Zephyr"), "APIs must return a copy")
	require.NoError(t, tab.CheckPlatforms([]string{"zephyr", "ARDUINO"}))
	require.EqualError(t, tab.CheckPlatforms([]string{"Zephyr", "Zephr"}), `unknown platform "Zephr" (known: Arduino, FreeRTOS, Zephyr)`)
}

func TestFind(t *testing.T) {
	tab, err := Load([]byte(small), "small.yaml")
	require.NoError(t, err)
	code := `#include <zephyr/kernel.h>
/* vTaskDelay(10) would be FreeRTOS */
void loop(void)
{
	printk("digitalWrite(13, HIGH)\n");
	k_msleep(100);
	my_vTaskDelay(1);
	digitalWrite(13, 1); digitalWrite(12, 0);
	Serial.begin(9600);
	xTaskCreate(task, "t", 512, NULL, 1, NULL); vTaskDelay (5);
}
`
	tests := []struct {
		name string
		skip []string
		want []Hit
	}{
		{"no skip", nil, []Hit{
			{Platform: "Zephyr", API: "k_msleep", Line: 6},
			{Platform: "Arduino", API: "digitalWrite", Line: 8},
			{Platform: "Arduino", API: "Serial.begin(", Line: 9},
			{Platform: "FreeRTOS", API: "vTaskDelay", Line: 10},
			{Platform: "FreeRTOS", API: "xTaskCreate", Line: 10},
		}},
		{"skip case-insensitive", []string{"zephyr", " ARDUINO "}, []Hit{
			{Platform: "FreeRTOS", API: "vTaskDelay", Line: 10},
			{Platform: "FreeRTOS", API: "xTaskCreate", Line: 10},
		}},
		{"skip all", []string{"Zephyr", "Arduino", "FreeRTOS"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tab.Find(code, tt.skip))
		})
	}
}

func TestDefault(t *testing.T) {
	tab, err := Default()
	require.NoError(t, err)
	plats := tab.Platforms()
	for _, p := range []string{"FreeRTOS", "Arduino", "STM32_HAL", "POSIX", "Linux_Userspace", "Zephyr", "ESP_IDF"} {
		require.Contains(t, plats, p)
		require.NotEmpty(t, tab.APIs(p), p)
	}
	zephyr := "#include <zephyr/kernel.h>\nint main(void)\n{\n\tk_msleep(1);\n\tudelay(5);\n\treturn 0;\n}\n"
	require.Empty(t, tab.Find(zephyr, []string{"Zephyr"}), "a clean Zephyr file has no foreign APIs")
	require.Equal(t, []Hit{{Platform: "STM32_HAL", API: "HAL_Delay", Line: 1}},
		tab.Find("void f(void) { HAL_Delay(10); }", nil))
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte(small))
	f.Add([]byte("platforms: {a: [x, x]}"))
	f.Add([]byte("platforms: &a {b: *a}"))
	f.Add([]byte("- \x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tab, err := Load(b, "fuzz.yaml")
		if err != nil {
			require.Nil(t, tab)
			require.Contains(t, err.Error(), "fuzz.yaml")
			return
		}
		for _, p := range tab.Platforms() {
			for _, api := range tab.APIs(p) {
				if api == "" {
					t.Fatalf("empty API in %s", p)
				}
			}
		}
		_ = tab.Find("void f(void) { x(); }", nil)
	})
}
