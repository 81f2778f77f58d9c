SUMMARY = "telemetryd - sensor telemetry forwarder"
DESCRIPTION = "telemetryd forwards sensor readings to a remote broker, \
optionally over TLS and with on-disk spooling while the broker is unreachable."
LICENSE = "Apache-2.0"
LIC_FILES_CHKSUM = "file://LICENSE;md5=3b83ef96387f14655fc854ddc3c6bd57"

SRCREV = "4f1c2b9e8d7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e"
SRC_URI = "git://git.example.com/iot/telemetryd.git;branch=release-1.2;protocol=https"

S = "${WORKDIR}/git"

inherit pkgconfig meson

DEPENDS += "json-c"

TELEMETRYD_PORT ??= "8883"

PACKAGECONFIG ?= "tls \
    ${@bb.utils.contains('DISTRO_FEATURES', 'systemd', 'systemd', '', d)} \
"

# PACKAGECONFIG[feature] = "enable args,disable args,DEPENDS,RDEPENDS:${PN}"
PACKAGECONFIG[spool]   = "-Dspool=enabled,-Dspool=disabled,sqlite3,"
PACKAGECONFIG[systemd] = "-Dsystemd=enabled,-Dsystemd=disabled,systemd,"
PACKAGECONFIG[tls]     = "-Dtls=enabled,-Dtls=disabled,openssl,ca-certificates"

EXTRA_OEMESON = "-Dport=${TELEMETRYD_PORT}"

RDEPENDS:${PN} += "tzdata"
