# cmake/astarInstall.cmake -- `cmake --install` rules: headers, libastar.a,
# libastar.so, the astar CLI and its manual page (share/man/man1/astar.1),
# the CMake package (find_package(astar)) and the pkg-config file. Included
# from the top-level CMakeLists.txt.
include(CMakePackageConfigHelpers)

set(ASTAR_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/astar CACHE STRING
    "Where astarConfig.cmake is installed, relative to the prefix")
mark_as_advanced(ASTAR_CMAKE_DIR)

# The exported names are astar::astar_static and astar::astar_shared;
# astarConfig.cmake adds astar::astar on top of them. Their include directory
# comes from $<INSTALL_INTERFACE:...> in the top-level CMakeLists.txt.
# ASTAR_BUILD_SHARED / ASTAR_BUILD_STATIC (both ON by default) choose which.
set(ASTAR_INSTALLED_LIBS)
foreach(kind SHARED STATIC)
  string(TOLOWER ${kind} t)
  if(ASTAR_BUILD_${kind})
    set_target_properties(astar_${t} PROPERTIES EXPORT_NAME astar_${t})
    list(APPEND ASTAR_INSTALLED_LIBS astar_${t})
  endif()
endforeach()
install(TARGETS ${ASTAR_INSTALLED_LIBS} EXPORT astarTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/astar
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
if(TARGET astar_cli)
  install(TARGETS astar_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/astar.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

install(EXPORT astarTargets NAMESPACE astar:: FILE astarTargets.cmake
        DESTINATION ${ASTAR_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/astarConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/astarConfig.cmake
                              INSTALL_DESTINATION ${ASTAR_CMAKE_DIR})
# 0.x releases promise nothing across minors in semver terms, but within one
# major the C API only grows, so SameMajorVersion is what consumers expect.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/astarConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/astarConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/astarConfigVersion.cmake
        DESTINATION ${ASTAR_CMAKE_DIR})

# astar.pc is written at install time, not configure time, so that
# `cmake --install build --prefix /some/where` gets prefix=/some/where in it.
install(CODE "
  set(ASTAR_PC_IN \"${CMAKE_CURRENT_SOURCE_DIR}/astar.pc.in\")
  set(ASTAR_PC_OUT \"${CMAKE_CURRENT_BINARY_DIR}/astar.pc\")
  set(ASTAR_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(ASTAR_PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(ASTAR_PC_VERSION \"${PROJECT_VERSION}\")
  set(ASTAR_PC_DESCRIPTION \"${PROJECT_DESCRIPTION}\")
  include(\"${CMAKE_CURRENT_LIST_DIR}/astarPkgConfig.cmake\")
")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/astar.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
