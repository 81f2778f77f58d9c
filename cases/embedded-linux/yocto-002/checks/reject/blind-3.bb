# defect: The unit is installed to a hard-coded /lib/systemd/system instead of ${systemd_system_unitdir}, which is wrong for usrmerge layouts (/usr/lib/systemd/system).
# breaks: "Nothing needs compiling; the recipe must not depend on the target architecture or on a particular distro path layout."
# must_fail: unit_in_system_unitdir
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

    install -d ${D}/lib/systemd/system
    install -m 0644 ${WORKDIR}/fan-control.service ${D}/lib/systemd/system/fan-control.service
}

FILES:${PN} += "/lib/systemd/system/fan-control.service"
