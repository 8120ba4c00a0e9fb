# vcpkg port of libastar (docs/packaging.md, "vcpkg").
#
# From the release tarball by default. To build a local checkout instead
# (overlay port; the version in vcpkg.json must match include/astar/base.h):
#
#   LIBASTAR_SOURCE_DIR=/path/to/libastar \
#     vcpkg install libastar --overlay-ports=/path/to/libastar/ports/vcpkg --no-binarycaching
#
# vcpkg's binary cache keys do not cover a local tree: --no-binarycaching (or
# a bumped port-version) makes it rebuild after the checkout changes.
if(DEFINED ENV{LIBASTAR_SOURCE_DIR})
    file(REAL_PATH "$ENV{LIBASTAR_SOURCE_DIR}" SOURCE_PATH)
    if(NOT EXISTS "${SOURCE_PATH}/include/astar/base.h")
        message(FATAL_ERROR "LIBASTAR_SOURCE_DIR=${SOURCE_PATH} is not a libastar checkout "
                            "(no include/astar/base.h)")
    endif()
    message(STATUS "Using the libastar checkout at ${SOURCE_PATH} (LIBASTAR_SOURCE_DIR)")
else()
    # REPO and SHA512 are filled in when a release is tagged (vcpkg prints the
    # archive's real SHA512 when this one does not match).
    vcpkg_from_github(
        OUT_SOURCE_PATH SOURCE_PATH
        REPO libastar/libastar
        REF "v${VERSION}"
        SHA512 0
        HEAD_REF main
    )
endif()

string(COMPARE EQUAL "${VCPKG_LIBRARY_LINKAGE}" "dynamic" ASTAR_BUILD_SHARED)
string(COMPARE EQUAL "${VCPKG_LIBRARY_LINKAGE}" "static" ASTAR_BUILD_STATIC)

vcpkg_check_features(OUT_FEATURE_OPTIONS FEATURE_OPTIONS
    FEATURES
        tool ASTAR_BUILD_TOOLS
        mpi  ASTAR_USE_MPI
)

# The tool is a release program: the debug build makes the library only
# (the later -D wins).
vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        ${FEATURE_OPTIONS}
        -DASTAR_BUILD_SHARED=${ASTAR_BUILD_SHARED}
        -DASTAR_BUILD_STATIC=${ASTAR_BUILD_STATIC}
        -DASTAR_BUILD_TESTS=OFF
        -DASTAR_BUILD_EXAMPLES=OFF
        -DASTAR_BUILD_BENCH=OFF
    OPTIONS_DEBUG
        -DASTAR_BUILD_TOOLS=OFF
        -DASTAR_USE_MPI=OFF
    MAYBE_UNUSED_VARIABLES
        ASTAR_USE_MPI
)

vcpkg_cmake_install()
vcpkg_cmake_config_fixup(PACKAGE_NAME astar CONFIG_PATH lib/cmake/astar)
vcpkg_fixup_pkgconfig()

if("tool" IN_LIST FEATURES)
    vcpkg_copy_tools(TOOL_NAMES astar AUTO_CLEAN)
endif()

# vcpkg installs no manual pages; `astar --man` prints this one.
file(REMOVE_RECURSE
    "${CURRENT_PACKAGES_DIR}/debug/include"
    "${CURRENT_PACKAGES_DIR}/debug/share"
    "${CURRENT_PACKAGES_DIR}/share/man"
)

file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
