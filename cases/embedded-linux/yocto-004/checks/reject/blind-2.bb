# defect: CANFRAME_BUILD_TESTS is left at its default ON, so the unit tests (needing GoogleTest)
# are still configured and built.
# breaks: "Build the library and the two tools; do not build the unit tests."
# must_fail: cmake_tools_on_tests_off
SUMMARY = "Vehicle gateway CAN frame codec library and tools"
HOMEPAGE = "https://git.example.com/auto/libcanframe"

LICENSE = "BSD-3-Clause & GPL-2.0-only"
LICENSE:${PN} = "BSD-3-Clause"
LICENSE:${PN}-tools = "GPL-2.0-only"
LIC_FILES_CHKSUM = "\
    file://COPYING;md5=6c4e1f0a9b8d7c2e5f3a1b0d9c8e7f6a \
    file://tools/COPYING.GPL;md5=b234ee4d69f5fce4486a80fdaf4a4263 \
"

SRCREV = "9d2e4c71b0a5f38e6c2d1b7a4e0f59c3d8b2a617"
SRC_URI = "\
    git://git.example.com/auto/libcanframe.git;branch=stable-2.3;protocol=https \
    file://0001-tools-install-into-CMAKE_INSTALL_BINDIR.patch \
"
S = "${WORKDIR}/git"

inherit pkgconfig cmake

DEPENDS += "zlib"

EXTRA_OECMAKE += "-DCANFRAME_BUILD_TOOLS=ON"

PACKAGE_BEFORE_PN = "${PN}-tools"
FILES:${PN}-tools = "${bindir}/*"
SUMMARY:${PN}-tools = "canframe-dump and canframe-send command-line tools"
