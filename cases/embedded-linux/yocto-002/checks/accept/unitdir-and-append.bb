SUMMARY = "Fan control daemon for the board's thermal zone"
SECTION = "base"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://${COMMON_LICENSE_DIR}/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "file://fan-control.sh file://fan-control.service"

S = "${WORKDIR}"

inherit systemd

SYSTEMD_PACKAGES = "${PN}"
SYSTEMD_SERVICE:${PN} = "fan-control.service"

do_configure[noexec] = "1"
do_compile[noexec] = "1"

do_install () {
    install -d ${D}${sbindir} ${D}${systemd_unitdir}/system
    install -m 0755 ${S}/fan-control.sh ${D}${sbindir}/fan-control
    install -m 0644 ${S}/fan-control.service ${D}${systemd_unitdir}/system/fan-control.service
}

FILES:${PN}:append = " ${systemd_unitdir}/system/fan-control.service"
