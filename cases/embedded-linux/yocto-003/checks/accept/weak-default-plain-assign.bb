# telemetryd 1.2 for Yocto Project 5.0 (scarthgap).
#
# Feature selection for integrators, without copying this recipe:
#   local.conf / distro:  PACKAGECONFIG:pn-telemetryd = "tls spool"
#   .bbappend:            PACKAGECONFIG:append = " spool"
#                         PACKAGECONFIG:remove = "tls"
#   broker port:          TELEMETRYD_PORT = "1883"   (local.conf)

SUMMARY = "Daemon that forwards sensor readings to a remote broker"
DESCRIPTION = "telemetryd publishes local sensor readings to a broker, \
optionally over TLS and with an on-disk spool for offline periods."
HOMEPAGE = "https://git.example.com/iot/telemetryd"
SECTION = "net"
LICENSE = "Apache-2.0"
LIC_FILES_CHKSUM = "file://LICENSE;md5=3b83ef96387f14655fc854ddc3c6bd57"

inherit meson
inherit pkgconfig
DEPENDS:append = " json-c"

SRC_URI = "git://git.example.com/iot/telemetryd.git;branch=release-1.2;protocol=https"
SRCREV = "4f1c2b9e8d7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e"
S = "${WORKDIR}/git"

# meson.bbclass appends ${PACKAGECONFIG_CONFARGS} to EXTRA_OEMESON itself.
TELEMETRYD_PORT ?= "8883"
EXTRA_OEMESON = "-Dport=${TELEMETRYD_PORT}"

# Weak default: any PACKAGECONFIG set elsewhere replaces it entirely.
PACKAGECONFIG ??= "${@bb.utils.contains('DISTRO_FEATURES', 'systemd', 'systemd', '', d)} tls"
#                    enabled,disabled,DEPENDS,RDEPENDS,RRECOMMENDS,conflicts
PACKAGECONFIG[systemd] = "-Dsystemd=enabled,-Dsystemd=disabled,systemd,,,"
PACKAGECONFIG[spool]   = "-Dspool=enabled,-Dspool=disabled,sqlite3,,,"
PACKAGECONFIG[tls]     = "-Dtls=enabled,-Dtls=disabled,openssl,ca-certificates,,"

RDEPENDS:${PN} = "tzdata"
