SUMMARY = "Daemon forwarding sensor readings to a remote broker"
HOMEPAGE = "https://git.example.com/iot/telemetryd"
LICENSE = "Apache-2.0"
LIC_FILES_CHKSUM = "file://LICENSE;md5=3b83ef96387f14655fc854ddc3c6bd57"

SRC_URI = "git://git.example.com/iot/telemetryd.git;protocol=https;branch=release-1.2"
SRCREV = "4f1c2b9e8d7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e"

S = "${WORKDIR}/git"

inherit meson pkgconfig

DEPENDS = "json-c"

# Weak default: local.conf / distro (PACKAGECONFIG:pn-telemetryd = "...")
# and .bbappend (PACKAGECONFIG:append / :remove) can change it.
PACKAGECONFIG ??= "tls ${@bb.utils.filter('DISTRO_FEATURES', 'systemd', d)}"

PACKAGECONFIG[tls] = "-Dtls=enabled,-Dtls=disabled,openssl,ca-certificates"
PACKAGECONFIG[spool] = "-Dspool=enabled,-Dspool=disabled,sqlite3"
PACKAGECONFIG[systemd] = "-Dsystemd=enabled,-Dsystemd=disabled,systemd"

# Default broker port; override from local.conf with TELEMETRYD_PORT = "..."
TELEMETRYD_PORT ?= "8883"

EXTRA_OEMESON += "-Dport=${TELEMETRYD_PORT}"

RDEPENDS:${PN} += "tzdata"
