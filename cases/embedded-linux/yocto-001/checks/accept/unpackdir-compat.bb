SUMMARY = "Uptime and load average reporter"
DESCRIPTION = "Small command-line tool printing the uptime and the 1, 5 and 15 minute load averages."
HOMEPAGE = "https://example.com/uptime-report"
SECTION = "utils"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://${COMMON_LICENSE_DIR}/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "file://uptime-report.c"

# Releases before styhead unpack local files straight into WORKDIR.
UNPACKDIR ??= "${WORKDIR}"
S = "${UNPACKDIR}"

do_configure[noexec] = "1"

do_compile () {
    ${CC} ${CFLAGS} ${LDFLAGS} \
        -o ${B}/uptime-report ${S}/uptime-report.c
}

do_install () {
    install -d ${D}${bindir}
    install -m 0755 ${B}/uptime-report ${D}${bindir}/uptime-report
}

FILES:${PN} += "${bindir}/uptime-report"
