# lskEmbed.cmake: lsk_embed_sources(OUT SYMBOL BASE FILE...) makes OUT, a C
# source defining `const char SYMBOL[]`: the text of the FILEs (paths under
# BASE) in order, each behind a #line marker so that build logs name the
# original file. For kernels that ship inside a library or program, as
# lsk's own do: nothing to find or install at run time. Installed with lsk's
# CMake package (find_package(lsk) provides it).
function(lsk_embed_sources out symbol base)
  # The script beside this file, wherever the caller's scope is.
  set(LSK_EMBED_SCRIPT "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed.cmake")
  set(files ${ARGN})
  set(deps)
  foreach(f IN LISTS files)
    list(APPEND deps "${base}/${f}")
  endforeach()
  string(REPLACE ";" "," csv "${files}")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DSYMBOL=${symbol} -DFILES=${csv} -DBASE=${base}
            -P "${LSK_EMBED_SCRIPT}"
    DEPENDS ${deps} "${LSK_EMBED_SCRIPT}"
    COMMENT "Embedding ${csv} as ${symbol}" VERBATIM)
endfunction()
