package dtc

import "slices"

// Board is what this backend knows of one Zephyr board's devicetree: the
// binding headers its DTS brings into the overlay's preprocessing unit.
// Zephyr appends app.overlay to the board's .dts and preprocesses them
// together, so every header in the board DTS's #include closure (the .dts,
// the SoC .dtsi files it includes, and theirs) defines macros the overlay
// may use without an #include of its own — and no other header does. An
// overlay that uses INPUT_KEY_ENTER on native_sim, whose DTS does not
// include input-event-codes.h, fails in Zephyr; here too.
type Board struct {
	// Names are the board's names: the board target first, older spellings
	// after.
	Names []string
	// Zephyr is the Zephyr release the include list stands for (the
	// cases' sdk_version). The files were read from stored copies of
	// zephyrproject-rtos/zephyr (commits in Source), not from the release
	// tag itself.
	Zephyr string
	// Headers are the binding headers of the closure, as an #include names
	// them, each one shipped with this backend (bindings/).
	Headers []string
	// Source names the Zephyr files (and the commits of the copies) read
	// for the list, to check it again.
	Source string
}

// Boards lists the boards whose devicetree includes are known, with the
// files they were read from. docs/TOOLCHAINS.md has the same table.
func Boards() []Board {
	return []Board{
		{
			Names:  []string{"native_sim"},
			Zephyr: "4.1.0",
			Headers: []string{
				"mem.h",
				"zephyr/dt-bindings/adc/adc.h",
				"zephyr/dt-bindings/i2c/i2c.h",
				"zephyr/dt-bindings/gpio/gpio.h",
			},
			Source: "boards/native/native_sim/native_sim.dts includes <posix/posix.dtsi>, " +
				"<zephyr/dt-bindings/adc/adc.h>, <zephyr/dt-bindings/i2c/i2c.h> and <zephyr/dt-bindings/gpio/gpio.h> " +
				"(the same in copies 000e58ff and 69fbc7a5); dts/posix/posix.dtsi (69fbc7a5) includes \"skeleton.dtsi\" " +
				"(no includes) and <mem.h>; adc.h includes dt-util.h",
		},
		{
			Names:  []string{"nrf52840dk/nrf52840", "nrf52840dk_nrf52840"},
			Zephyr: "4.1.0",
			Headers: []string{
				"mem.h",
				"zephyr/dt-bindings/adc/adc.h",
				"zephyr/dt-bindings/gpio/gpio.h",
				"zephyr/dt-bindings/i2c/i2c.h",
				"zephyr/dt-bindings/pinctrl/nrf-pinctrl.h",
				"zephyr/dt-bindings/pwm/pwm.h",
				"freq.h",
				"zephyr/dt-bindings/adc/nrf-saadc-v2.h",
				"zephyr/dt-bindings/regulator/nrf5x.h",
				"zephyr/dt-bindings/input/input-event-codes.h",
			},
			Source: "boards/nordic/nrf52840dk/nrf52840dk_nrf52840.dts (07d5b2e3) includes <nordic/nrf52840_qiaa.dtsi>, " +
				"its -pinctrl.dtsi (no includes) and <zephyr/dt-bindings/input/input-event-codes.h>; " +
				"dts/arm/nordic/nrf52840_qiaa.dtsi (06758ff2) includes <mem.h> and <nordic/nrf52840.dtsi>; " +
				"dts/arm/nordic/nrf52840.dtsi includes <arm/armv7-m.dtsi> (skeleton.dtsi only), <nordic/nrf_common.dtsi>, " +
				"the SAADC inputs (nrf-saadc.h in 00110538, nrf-saadc-v2.h, which includes it, in a later copy) " +
				"and <zephyr/dt-bindings/regulator/nrf5x.h>; dts/arm/nordic/nrf_common.dtsi (1cee91fe, pre-4.x) includes " +
				"the gpio, i2c, nrf-pinctrl and pwm headers; adc.h and <freq.h> are inferred: nrf52840.dtsi uses DT_FREQ_M " +
				"without including freq.h, and Zephyr's nRF overlays of samples/drivers/adc/adc_dt use ADC_ACQ_TIME_DEFAULT " +
				"and NRF_SAADC_VDD without any #include",
		},
	}
}

// LookupBoard finds a board by any of its names.
func LookupBoard(name string) (Board, bool) {
	for _, b := range Boards() {
		if slices.Contains(b.Names, name) {
			return b, true
		}
	}
	return Board{}, false
}

// boardNames lists the first name of every known board.
func boardNames() []string {
	var out []string
	for _, b := range Boards() {
		out = append(out, b.Names[0])
	}
	return out
}
