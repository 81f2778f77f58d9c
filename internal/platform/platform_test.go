package platform

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
)

func TestBundledCasesResolve(t *testing.T) {
	reg, err := Default()
	require.NoError(t, err)
	corpus := cases.LoadCorpus("../../cases", "")
	got := map[string]string{}
	for _, c := range corpus.Cases {
		tg, ok := reg.Resolve(c)
		require.True(t, ok, c.Meta.ID)
		got[c.Meta.SDK+"/"+c.Meta.ID] = tg.Name + " " + tg.Board(c)
	}
	want := map[string]string{
		"baremetal/timer-001":                "baremetal-cortex-m mps2-an385",
		"embedded-linux/linux-driver-001":    "linux-kernel-module x86_64",
		"embedded-linux/linux-userspace-001": "linux-udev-rules x86_64",
		"esp-idf/storage-001":                "esp-idf esp32",
		"freertos/threading-001":             "freertos-qemu mps2-an385",
		"stm32-hal/uart-001":                 "stm32-hal nucleo-f401re",
		"zephyr/device-tree-001":             "zephyr-devicetree-overlay native_sim",
		"zephyr/gpio-basic-001":              "zephyr native_sim",
		"zephyr/kconfig-001":                 "zephyr-kconfig-fragment native_sim",
		"embedded-linux/yocto-001":           "yocto qemuarm64",
		"embedded-linux/linux-userspace-002": "linux-userspace x86_64",
		"zephyr/adc-001":                     "zephyr nrf52840dk/nrf52840",
	}
	for k, v := range want {
		require.Equal(t, v, got[k], k)
	}
	require.Len(t, got, len(corpus.Cases), "every bundled case resolves to a target")
}

func TestCanRun(t *testing.T) {
	reg, err := Default()
	require.NoError(t, err)
	zephyr, _ := reg.Resolve(&cases.Case{Meta: cases.Metadata{SDK: "zephyr", Platform: "native_sim"}, ReferencePath: "reference/main.c"})
	require.True(t, zephyr.CanRun("native_sim"))
	require.False(t, zephyr.CanRun("nrf52840dk/nrf52840"), "hardware boards do not run")
	esp, _ := reg.Resolve(&cases.Case{Meta: cases.Metadata{SDK: "esp-idf", Platform: "esp_idf"}, ReferencePath: "reference/main.c"})
	require.True(t, esp.CanBuild())
	require.False(t, esp.CanRun("esp32"))
}

func TestLoadErrors(t *testing.T) {
	for in, want := range map[string]string{
		"targets: []\n": "r.yaml: no targets",
		"targets:\n  - name: a\n    backend: b\n    match: {sdk: zephyr}\n    colour: red\n": "r.yaml: yaml: unmarshal errors:\n  line 5: field colour not found in type platform.Target",
		"targets:\n  - name: a\n    backend: b\n    match: {board: x}\n":                     `r.yaml: targets[0] (a): unknown match key "board" (want sdk, platform, category, output)`,
		"targets:\n  - name: a\n    backend: b\n    match: {sdk: x}\n    layers: [L3]\n":     `r.yaml: targets[0] (a): layer "L3" is not L1 or L2`,
		"targets:\n  - name: a\n    backend: b\n    match: {sdk: x}\n    run_boards: [q]\n":  `r.yaml: targets[0] (a): run_boards without L2`,
		"targets:\n  - name: a\n    match: {sdk: x}\n":                                       `r.yaml: targets[0] (a): missing backend`,
	} {
		_, err := Load([]byte(in), "r.yaml")
		require.EqualError(t, err, want, in)
	}
}
