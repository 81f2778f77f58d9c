SUMMARY = "Command-line tool printing the system uptime"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://${COMMON_LICENSE_DIR}/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "file://uptime-report.c"

S = "${WORKDIR}"
B = "${WORKDIR}/build"

# Let ${CC} carry the distro linker flags as well (GNU_HASH, relro, --as-needed...)
TARGET_CC_ARCH += "${LDFLAGS}"

do_configure[noexec] = "1"

do_compile() {
    ${CC} ${CPPFLAGS} ${CFLAGS} -o uptime-report ${S}/uptime-report.c
}

do_install() {
    install -D -m 0755 ${B}/uptime-report ${D}${bindir}/uptime-report
}
