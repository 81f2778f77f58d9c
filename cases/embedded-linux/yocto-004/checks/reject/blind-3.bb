# defect: pkgconfig is not inherited, so pkg-config (pkgconfig-native) is missing when the
# CMake files look up zlib.
# breaks: "Every build dependency must be stated; do not pull in anything that is not needed."
# must_fail: build_dependencies
SUMMARY = "CAN frame encoding/decoding library for the vehicle gateway"
DESCRIPTION = "libcanframe encodes and decodes the CAN frames of the vehicle \
gateway. The canframe-dump and canframe-send command-line tools built on it \
are shipped in the ${PN}-tools package."
HOMEPAGE = "https://git.example.com/auto/libcanframe"
SECTION = "libs"

# Library: BSD-3-Clause (COPYING); tools: GPL-2.0-only (tools/COPYING.GPL)
LICENSE = "BSD-3-Clause & GPL-2.0-only"
LIC_FILES_CHKSUM = "file://COPYING;md5=6c4e1f0a9b8d7c2e5f3a1b0d9c8e7f6a \
                    file://tools/COPYING.GPL;md5=b234ee4d69f5fce4486a80fdaf4a4263"

SRC_URI = "git://git.example.com/auto/libcanframe.git;protocol=https;branch=stable-2.3 \
           file://0001-tools-install-into-CMAKE_INSTALL_BINDIR.patch \
           "
SRCREV = "9d2e4c71b0a5f38e6c2d1b7a4e0f59c3d8b2a617"

S = "${WORKDIR}/git"

# zlib for the target
DEPENDS = "zlib"

inherit cmake

EXTRA_OECMAKE = " \
    -DCANFRAME_BUILD_TOOLS=ON \
    -DCANFRAME_BUILD_TESTS=OFF \
"

# The tools package must come before ${PN}, whose FILES include ${bindir}/*
PACKAGES =+ "${PN}-tools"

FILES:${PN}-tools = " \
    ${bindir}/canframe-dump \
    ${bindir}/canframe-send \
"

LICENSE:${PN} = "BSD-3-Clause"
LICENSE:${PN}-tools = "GPL-2.0-only"
