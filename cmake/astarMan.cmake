# cmake/astarMan.cmake -- writes the manual page astar(1) by running the
# built tool: `astar --man` prints it from the tool's own help texts, so the
# page cannot drift from `astar --help`. Run as a build step:
#   cmake -DASTAR_TOOL=path/to/astar -DASTAR_MAN_OUT=path/to/astar.1 -P astarMan.cmake
execute_process(COMMAND ${ASTAR_TOOL} --man OUTPUT_FILE ${ASTAR_MAN_OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${ASTAR_MAN_OUT}.tmp)
  message(FATAL_ERROR "${ASTAR_TOOL} --man failed (${rc})")
endif()
file(RENAME ${ASTAR_MAN_OUT}.tmp ${ASTAR_MAN_OUT})
