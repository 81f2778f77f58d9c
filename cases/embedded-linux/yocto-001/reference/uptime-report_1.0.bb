SUMMARY = "Print the system uptime and load averages"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://${COREBASE}/meta/files/common-licenses/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "file://uptime-report.c"

S = "${WORKDIR}"

do_compile() {
	${CC} ${CFLAGS} ${LDFLAGS} -o uptime-report uptime-report.c
}

do_install() {
	install -d ${D}${bindir}
	install -m 0755 uptime-report ${D}${bindir}
}
