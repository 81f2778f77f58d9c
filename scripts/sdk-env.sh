# Sourced by scripts/test.sh and .ci/run (from the repository root): points
# FREERTOS_KERNEL and STM32_HAL_PATH at the real SDK trees in ../shared/sdk
# beside the checkout when that folder holds them (docs/TOOLCHAINS.md, "Real
# SDK trees"). A variable that is already set wins.
# shellcheck shell=bash
sdk_root="$(cd .. && pwd)/shared/sdk"
if [ -z "${FREERTOS_KERNEL:-}" ] && [ -f "$sdk_root/FreeRTOS-Kernel/include/FreeRTOS.h" ]; then
	export FREERTOS_KERNEL="$sdk_root/FreeRTOS-Kernel"
fi
if [ -z "${STM32_HAL_PATH:-}" ] && [ -d "$sdk_root/STM32CubeF4/Drivers/STM32F4xx_HAL_Driver" ]; then
	export STM32_HAL_PATH="$sdk_root/STM32CubeF4"
fi
unset sdk_root
