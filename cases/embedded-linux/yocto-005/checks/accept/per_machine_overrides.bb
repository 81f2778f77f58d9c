# External watchdog driver for the ACME gateways (acme-gw2, acme-gw3).
DESCRIPTION = "Out-of-tree kernel module acme_wdt for the external watchdog."
SECTION = "kernel/modules"
LICENSE = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://${WORKDIR}/COPYING;md5=12f884d2ae1ff87c09e5b7ccc2c4ca7e"

SRC_URI = "file://acme_wdt.c file://Makefile"
SRC_URI += "file://COPYING"
S = "${WORKDIR}"

inherit module

# Refused everywhere but on the two ACME boards.
COMPATIBLE_MACHINE = "(^$)"
COMPATIBLE_MACHINE:acme-gw2 = "acme-gw2"
COMPATIBLE_MACHINE:acme-gw3 = "acme-gw3"

# Package kernel-module-acme-wdt-<kver> is generated; make the bare name resolve here too.
RPROVIDES:acme-wdt-mod:append = " kernel-module-acme-wdt"

KERNEL_MODULE_AUTOLOAD:append = " acme_wdt"
KERNEL_MODULE_PROBECONF:append = " acme_wdt"

module_conf_acme_wdt:acme-gw2 = "options acme_wdt nowayout=1 timeout=30"
module_conf_acme_wdt:acme-gw3 = "options acme-wdt nowayout=1 timeout=90"
