SUMMARY = "CAN frame encoding and decoding library, with command-line tools"
HOMEPAGE = "https://git.example.com/auto/libcanframe"
SECTION = "libs"

LICENSE = "BSD-3-Clause & GPL-2.0-only"
LICENSE:${PN} = "BSD-3-Clause"
LICENSE:${PN}-tools = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://COPYING;md5=6c4e1f0a9b8d7c2e5f3a1b0d9c8e7f6a \
                    file://tools/COPYING.GPL;md5=b234ee4d69f5fce4486a80fdaf4a4263"

SRC_URI = "git://git.example.com/auto/libcanframe.git;protocol=https;branch=stable-2.3 \
           file://0001-tools-install-into-CMAKE_INSTALL_BINDIR.patch"
SRCREV = "9d2e4c71b0a5f38e6c2d1b7a4e0f59c3d8b2a617"

S = "${WORKDIR}/git"

inherit cmake pkgconfig

DEPENDS = "zlib"

EXTRA_OECMAKE = "-DCANFRAME_BUILD_TOOLS=ON -DCANFRAME_BUILD_TESTS=OFF"

PACKAGES =+ "${PN}-tools"
FILES:${PN}-tools = "${bindir}/canframe-dump ${bindir}/canframe-send"
