#!/usr/bin/env bash
# The project's test command: installs the Debian toolchains the tests use
# (when it runs as root with apt-get available, unless EMBEDEVAL_SKIP_INSTALL=1),
# points FREERTOS_KERNEL and STM32_HAL_PATH at ../shared/sdk when it holds the
# real SDK trees (scripts/sdk-env.sh), then runs vet and the whole Go test
# suite. Extra arguments go to `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the suite exercises for real. Tests that need one of them
# say so when it is missing (and fail instead when EMBEDEVAL_REQUIRE_TOOLCHAINS=1).
packages=(
	make pkg-config cpp                                  # host builds
	device-tree-compiler                                 # devicetree overlays (L1)
	linux-headers-amd64 linux-headers-6.12-amd64         # kernel modules with kbuild (L1): the 6.1 and 6.12 series
	libgpiod-dev libsystemd-dev                          # Linux userspace cases (L1, L2)
	gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm  # bare-metal Cortex-M (L1, L2)
	shellcheck                                           # the scripts inside workflows and actions
	python3                                              # the bridge to Python check modules (checks/*.py)
	bubblewrap                                           # the jail of every build and run of untrusted code
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ] && [ "${EMBEDEVAL_SKIP_INSTALL:-0}" != 1 ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "scripts/test.sh: installing ${missing[*]}" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >/dev/null
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	else
		echo "scripts/test.sh: not root or no apt-get; not installing ${missing[*]} (tests needing them will say so)" >&2
	fi
fi

# The real FreeRTOS kernel and STM32Cube HAL of ../shared/sdk, when present.
. scripts/sdk-env.sh
echo "scripts/test.sh: FREERTOS_KERNEL=${FREERTOS_KERNEL:-(unset)} STM32_HAL_PATH=${STM32_HAL_PATH:-(unset)}" >&2

go vet ./...
# The real-toolchain tests (QEMU runs of every FreeRTOS and bare-metal
# answer, their scenario runs included) take far longer than go test's
# default 10 minutes for one package on a 2-core machine (internal/validate:
# 27 minutes at 135 cases); a later -timeout wins.
go test -timeout 60m "$@" ./...
