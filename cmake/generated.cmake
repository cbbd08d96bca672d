# generated.cmake: the one ending of lsk's header generators
# (block_define.cmake, barrier_guards.cmake), included by them in script
# mode. lsk_generated(HEADER TEXT WHAT): with CHECK on, fail unless HEADER
# holds TEXT already (the build runs the generators so, so that a stale
# checked-in header stops it); else write TEXT to HEADER.
function(lsk_generated header text what)
  if(CHECK)
    set(old "")
    if(EXISTS "${header}")
      file(READ "${header}" old)
    endif()
    if(NOT old STREQUAL text)
      get_filename_component(gen "${CMAKE_CURRENT_LIST_FILE}" NAME)
      message(FATAL_ERROR "${gen}: ${header} is out of date with ${what}: run\n"
                          "  cmake -DCL=${CL} -P ${CMAKE_CURRENT_LIST_FILE}")
    endif()
  else()
    file(WRITE "${header}" "${text}")
  endif()
endfunction()
