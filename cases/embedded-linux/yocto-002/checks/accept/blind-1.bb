SUMMARY = "Thermal-zone driven fan regulation service"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://${COMMON_LICENSE_DIR}/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = " \
    file://fan-control.sh \
    file://fan-control.service \
"

S = "${WORKDIR}"

inherit allarch systemd

SYSTEMD_SERVICE:${PN} = "fan-control.service"
SYSTEMD_AUTO_ENABLE:${PN} = "enable"

do_install() {
    install -d ${D}${sbindir}
    install -m 0755 ${WORKDIR}/fan-control.sh ${D}${sbindir}/fan-control

    install -d ${D}${systemd_system_unitdir}
    install -m 0644 ${WORKDIR}/fan-control.service ${D}${systemd_system_unitdir}/fan-control.service
}

FILES:${PN} += "${systemd_system_unitdir}/fan-control.service"
