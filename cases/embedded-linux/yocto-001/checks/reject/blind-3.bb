# defect: S is left at its default ${WORKDIR}/uptime-report-1.0, but the file:// source is unpacked into ${WORKDIR}, so do_compile cannot find ${S}/uptime-report.c and the build fails.
# breaks: "Build the program for the target machine as part of the normal `bitbake uptime-report` build, so that the distro's compiler, optimisation, hardening and linker settings apply."
# must_fail: source_dir_valid_for_scarthgap
SUMMARY = "Small utility that reports the system uptime"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://${COMMON_LICENSE_DIR}/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "file://uptime-report.c"

do_compile() {
    ${CC} ${CFLAGS} ${LDFLAGS} ${S}/uptime-report.c -o ${B}/uptime-report
}

do_install() {
    install -d ${D}${bindir}
    install -m 0755 ${B}/uptime-report ${D}${bindir}/uptime-report
}
