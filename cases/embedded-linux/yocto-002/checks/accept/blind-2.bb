SUMMARY = "Fan controller that follows the board thermal zone"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://${COMMON_LICENSE_DIR}/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "file://fan-control.sh file://fan-control.service"

S = "${WORKDIR}"

inherit features_check systemd allarch

REQUIRED_DISTRO_FEATURES = "systemd"

# The systemd class adds the unit to FILES of the packages listed here,
# and its postinst enables it (also at rootfs time).
SYSTEMD_PACKAGES = "${PN}"
SYSTEMD_SERVICE:${PN} = "fan-control.service"
SYSTEMD_AUTO_ENABLE = "enable"

do_configure[noexec] = "1"
do_compile[noexec] = "1"

do_install() {
    install -D -m 0644 ${S}/fan-control.service ${D}${systemd_system_unitdir}/fan-control.service
    install -D -m 0755 ${S}/fan-control.sh ${D}${sbindir}/fan-control
}
