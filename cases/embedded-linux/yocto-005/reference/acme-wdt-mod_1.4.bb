SUMMARY = "Driver for the external watchdog of the ACME gateway boards"
LICENSE = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://COPYING;md5=12f884d2ae1ff87c09e5b7ccc2c4ca7e"

inherit module

SRC_URI = "file://Makefile \
           file://acme_wdt.c \
           file://COPYING \
          "

S = "${WORKDIR}"

COMPATIBLE_MACHINE = "^(acme-gw2|acme-gw3)$"

RPROVIDES:${PN} += "kernel-module-acme-wdt"

KERNEL_MODULE_AUTOLOAD += "acme_wdt"

KERNEL_MODULE_PROBECONF += "acme_wdt"
module_conf_acme_wdt = "options acme_wdt timeout=30 nowayout=1"
module_conf_acme_wdt:acme-gw3 = "options acme_wdt timeout=90 nowayout=1"
