# defect: COMPATIBLE_MACHINE is written as a space-separated list; it is a regular expression,
# so "acme-gw2 acme-gw3" matches neither machine and the recipe is skipped on both.
# breaks: "The recipe is only for the two ACME machines: building it for any other machine must be refused with a clear "incompatible" message, not attempted."
# must_fail: compatible_machine_restricted
SUMMARY = "ACME gateway external watchdog kernel module"
LICENSE = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://COPYING;md5=12f884d2ae1ff87c09e5b7ccc2c4ca7e"

SRC_URI = "\
    file://acme_wdt.c \
    file://Makefile \
    file://COPYING \
"
S = "${WORKDIR}"

inherit module

COMPATIBLE_MACHINE = "acme-gw2 acme-gw3"

ACME_WDT_TIMEOUT = ""
ACME_WDT_TIMEOUT:acme-gw2 = "30"
ACME_WDT_TIMEOUT:acme-gw3 = "90"

KERNEL_MODULE_AUTOLOAD:append = " acme_wdt"
KERNEL_MODULE_PROBECONF:append = " acme_wdt"
module_conf_acme_wdt = "options acme_wdt timeout=${ACME_WDT_TIMEOUT} nowayout=1"

RPROVIDES:${PN} += "kernel-module-acme-wdt"
