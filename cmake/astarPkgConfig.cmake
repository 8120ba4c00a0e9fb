# cmake/astarPkgConfig.cmake -- writes astar.pc during `cmake --install`.
# Runs inside the install script, where CMAKE_INSTALL_PREFIX is the prefix
# actually installed to (--prefix overrides the configured one). Inputs:
# ASTAR_PC_IN, ASTAR_PC_OUT, ASTAR_PC_LIBDIR, ASTAR_PC_INCLUDEDIR,
# ASTAR_PC_VERSION, ASTAR_PC_DESCRIPTION. Outputs ASTAR_PC_RPATH for Libs.
set(ASTAR_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${ASTAR_PC_${kind}}")
    set(ASTAR_PC_FULL_${kind} "${ASTAR_PC_${kind}}")
  else()
    # Written as ${prefix}/... so that overriding prefix
    # (pkg-config --define-variable=prefix=...) moves everything.
    set(ASTAR_PC_FULL_${kind} "\${prefix}/${ASTAR_PC_${kind}}")
  endif()
endforeach()
# Outside the system prefix the dynamic loader does not look in libdir: a
# program linked with `pkg-config --libs astar` would build but not start
# ("libastar.so.0: cannot open shared object file"). An RPATH to libdir in
# Libs makes it start; a system prefix needs none.
if(ASTAR_PC_PREFIX STREQUAL "/usr")
  set(ASTAR_PC_RPATH "")
else()
  set(ASTAR_PC_RPATH " -Wl,-rpath,\${libdir}")
endif()
configure_file("${ASTAR_PC_IN}" "${ASTAR_PC_OUT}" @ONLY)
