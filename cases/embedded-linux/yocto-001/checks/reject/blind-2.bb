# defect: The install path is hard-coded to /usr/bin instead of using ${bindir}, so it ignores the distro path layout.
# breaks: "The recipe must work for any target architecture and any distro path layout."
# must_fail: install_path_uses_bindir
SUMMARY = "Small utility that reports the system uptime"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://${COMMON_LICENSE_DIR}/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "file://uptime-report.c"

S = "${WORKDIR}"

do_compile() {
    ${CC} ${CFLAGS} ${LDFLAGS} ${S}/uptime-report.c -o ${B}/uptime-report
}

do_install() {
    install -d ${D}/usr/bin
    install -m 0755 ${B}/uptime-report ${D}/usr/bin/uptime-report
}
