# trace_cli.cmake: the trace's command-line side (docs/queues-trace.md), in
# CMake with python3 only where it is found.
#
#   cmake -DMODE=png -DPYTHON=python3 -DRENDER=docs/tools/trace_png.py
#         -DTRACE=tests/trace_small.json -DWORK=dir -P trace_cli.cmake
#   cmake -DMODE=pic -DLSK=lsk [-DPYTHON=python3 -DRENDER=...] -DWORK=dir -P trace_cli.cmake
#
# png: the renderer draws TRACE (a trace of three queues that lsk wrote, one
#   named with a quote, a backslash and a tab) at --width 640: a PNG whose
#   IHDR says 640 wide and some rows high; a file that is not JSON is refused
#   with exit status 1 and a message.
# pic: `lsk demo pic --trace FILE --profile` on a small run: the profile
#   table on stdout, FILE trace-event JSON with the demo's kernels in it;
#   with python3, the renderer draws it.
cmake_minimum_required(VERSION 3.20)

if(NOT MODE OR NOT WORK)
  message(FATAL_ERROR "usage: cmake -DMODE=png|pic -DWORK=dir ... -P ${CMAKE_SCRIPT_MODE_FILE}")
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# render(trace png width): draws trace into png and checks the picture.
function(render trace png width)
  execute_process(COMMAND "${PYTHON}" "${RENDER}" "${trace}" "${png}" --width ${width}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "trace_png.py ${trace} failed (${rc})")
  endif()
  file(READ "${png}" head LIMIT 24 HEX)
  string(SUBSTRING "${head}" 0 16 sig)
  string(SUBSTRING "${head}" 24 8 chunk)
  string(SUBSTRING "${head}" 32 8 w)
  string(SUBSTRING "${head}" 40 8 h)
  if(NOT sig STREQUAL "89504e470d0a1a0a" OR NOT chunk STREQUAL "49484452")
    message(FATAL_ERROR "${png}: not a PNG with an IHDR first (${head})")
  endif()
  math(EXPR wgot "0x${w}")
  math(EXPR hgot "0x${h}")
  if(NOT wgot EQUAL width OR hgot LESS 100 OR hgot GREATER 4000)
    message(FATAL_ERROR "${png}: ${wgot}x${hgot}, wanted ${width} wide, 100 to 4000 high")
  endif()
  file(SIZE "${png}" bytes)
  message("${png}: PNG ${wgot}x${hgot}, ${bytes} bytes")
endfunction()

if(MODE STREQUAL "png")
  render("${TRACE}" "${WORK}/small.png" 640)
  file(WRITE "${WORK}/bad.json" "{\"traceEvents\": [}")
  execute_process(COMMAND "${PYTHON}" "${RENDER}" "${WORK}/bad.json" "${WORK}/bad.png"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "bad.json" OR EXISTS "${WORK}/bad.png")
    message(FATAL_ERROR "trace_png.py on a file that is not JSON: status ${rc}, '${err}'")
  endif()
elseif(MODE STREQUAL "pic")
  set(trace "${WORK}/pic.json")
  execute_process(COMMAND "${LSK}" demo pic --grid 16x12 --particles 20000 --frame 32 --steps 5
                          --trace "${trace}" --profile
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lsk demo pic --trace --profile failed (${rc})")
  endif()
  if(NOT out MATCHES "profile: [0-9]+ commands" OR NOT out MATCHES "pic_move +5 ")
    message(FATAL_ERROR "no profile table with pic_move's 5 launches on stdout")
  endif()
  file(READ "${trace}" json)
  string(JSON nev ERROR_VARIABLE jerr LENGTH "${json}" traceEvents)
  if(jerr OR nev LESS 10)
    message(FATAL_ERROR "${trace}: not trace-event JSON with commands in it: ${jerr}")
  endif()
  string(FIND "${json}" "\"name\": \"pic_move\", \"cat\": \"kernel\"" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${trace}: no slice of pic_move")
  endif()
  if(PYTHON AND RENDER)
    render("${trace}" "${WORK}/pic.png" 1200)
  endif()
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
