package cases

// The enumerations of the interop contract §2.1. They are data, not state: each
// accessor returns a fresh slice.

// Categories lists the case categories (the seeds' 23 plus linux-userspace, which
// the methodology's tables already use).
func Categories() []string {
	return []string{
		"adc", "ble", "boot", "device-tree", "dma", "gpio-basic", "isr-concurrency",
		"kconfig", "linux-driver", "linux-userspace", "memory-opt", "networking", "ota",
		"power-mgmt", "pwm", "security", "sensor-driver", "spi-i2c", "storage",
		"threading", "timer", "uart", "watchdog", "yocto",
	}
}

// Platforms lists the evaluation platforms (EvalPlatform).
func Platforms() []string {
	return []string{
		"babblesim", "docker_only", "esp_idf", "native_sim", "qemu_arm",
		"qemu_freertos", "qemu_linux", "stm32_hal", "yocto_build",
	}
}

// SDKs lists the SDK buckets. "baremetal" (register-level Cortex-M code on
// qemu_arm) is an additive value of this project; the contract's five come first.
func SDKs() []string {
	return []string{"zephyr", "embedded-linux", "freertos", "esp-idf", "stm32-hal", "baremetal"}
}

// SDKForPlatform returns the SDK a case of the Python implementation's flat
// layout, whose metadata has no sdk field, belongs to, by its platform (the
// grouping of that implementation's EvalPlatform; docs/CASE-FORMAT.md has the
// table), or "" for a platform not in the table.
func SDKForPlatform(platform string) string {
	switch platform {
	case "native_sim", "qemu_arm", "babblesim":
		return "zephyr"
	case "qemu_freertos":
		return "freertos"
	case "esp_idf":
		return "esp-idf"
	case "stm32_hal":
		return "stm32-hal"
	case "docker_only", "qemu_linux", "yocto_build":
		return "embedded-linux"
	}
	return ""
}

// Difficulties lists the difficulty levels.
func Difficulties() []string { return []string{"easy", "medium", "hard"} }

// Tiers lists the evaluation tiers; "core" is the default.
func Tiers() []string { return []string{"sanity", "core", "challenge"} }

// Visibilities lists the visibility values; "public" is the default.
func Visibilities() []string { return []string{"public", "private"} }

// ReasoningTypes lists the reasoning types of the methodology's per-reasoning
// breakdown.
func ReasoningTypes() []string {
	return []string{"api_recall", "rule_application", "cross_domain", "system_reasoning"}
}

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}
