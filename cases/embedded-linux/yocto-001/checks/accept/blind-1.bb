SUMMARY = "Small utility that reports the system uptime"
DESCRIPTION = "uptime-report prints how long the system has been running."
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://${COMMON_LICENSE_DIR}/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "file://uptime-report.c"

S = "${WORKDIR}"

do_compile() {
    ${CC} ${CFLAGS} ${LDFLAGS} ${S}/uptime-report.c -o ${B}/uptime-report
}

do_install() {
    install -d ${D}${bindir}
    install -m 0755 ${B}/uptime-report ${D}${bindir}/uptime-report
}
