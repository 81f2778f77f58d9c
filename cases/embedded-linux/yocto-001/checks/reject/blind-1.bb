# defect: The link step omits ${LDFLAGS}, so the distro's linker/hardening flags (GNU_HASH, relro, -z now) are not applied and the ldflags QA check fails.
# breaks: "Build the program for the target machine as part of the normal `bitbake uptime-report` build, so that the distro's compiler, optimisation, hardening and linker settings apply."
# must_fail: compile_honours_distro_flags
SUMMARY = "Small utility that reports the system uptime"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://${COMMON_LICENSE_DIR}/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "file://uptime-report.c"

S = "${WORKDIR}"

do_compile() {
    ${CC} ${CFLAGS} ${S}/uptime-report.c -o ${B}/uptime-report
}

do_install() {
    install -d ${D}${bindir}
    install -m 0755 ${B}/uptime-report ${D}${bindir}/uptime-report
}
