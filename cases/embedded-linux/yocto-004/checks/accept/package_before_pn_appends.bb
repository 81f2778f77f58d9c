# libcanframe 2.3.1 - scarthgap
DESCRIPTION = "Encoder/decoder for vehicle gateway CAN frames, plus canframe-dump and canframe-send."

LICENSE = "GPL-2.0-only & BSD-3-Clause"
LIC_FILES_CHKSUM = "file://${S}/COPYING;md5=6c4e1f0a9b8d7c2e5f3a1b0d9c8e7f6a"
LIC_FILES_CHKSUM += "file://${S}/tools/COPYING.GPL;md5=b234ee4d69f5fce4486a80fdaf4a4263"

SRCREV = "9d2e4c71b0a5f38e6c2d1b7a4e0f59c3d8b2a617"
SRC_URI = "git://git.example.com/auto/libcanframe.git;branch=stable-2.3;protocol=https"
SRC_URI:append = " file://0001-tools-install-into-CMAKE_INSTALL_BINDIR.patch;striplevel=1"
S = "${WORKDIR}/git"

DEPENDS:append = " zlib pkgconfig-native"

inherit cmake

EXTRA_OECMAKE:append = " -DCANFRAME_BUILD_TESTS:BOOL=OFF"
EXTRA_OECMAKE:append = " -DCANFRAME_BUILD_TOOLS:BOOL=ON"

PACKAGE_BEFORE_PN += "libcanframe-tools"
FILES:libcanframe-tools = "${bindir}/canframe-*"

LICENSE:libcanframe = "BSD-3-Clause"
LICENSE:libcanframe-tools = "GPL-2.0-only"
