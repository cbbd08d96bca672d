# bench_cli.cmake: checks of `lsk bench`'s command line and outputs that need
# more than ctest's own properties (an exit status and a message together, a
# file's contents), in CMake alone: CI machines may have neither python3 nor
# jq, and CMake >= 3.19 parses JSON (string(JSON) fails on invalid input).
#
#   cmake -DLSK=path/to/lsk -DWORK=dir -DMODE=json|bad-number|progress|trace|taichi-... -P bench_cli.cmake
#
# json: `lsk bench --quick --json FILE` with an infinite sample in it, and
#   FILE must parse as JSON with null where that sample is. The sample comes
#   from a stand-in for lsk-peer-boost (the Boost.Compute peer, looked for
#   next to the lsk executable): LSK is copied into WORK next to a shell
#   script that speaks the peer's protocol and reports every time as "inf",
#   which the bench takes (it refuses only times that are not > 0).
# bad-number: `lsk bench --repeat 15x` is a usage error (exit status 2) that
#   names the option and the value.
# progress: a run whose stderr is not a terminal writes no \r progress line.
# trace: `lsk bench --quick --only launch --trace FILE` writes FILE, valid
#   trace-event JSON: a thread_name for the default queue, and one complete
#   ("X") slice per launch of the case's empty kernel, on that queue, each
#   with a start and a duration >= 0 (the case launches it 1 + 2 x 200 times
#   with --quick; at least 400 are wanted).
# taichi-skip, taichi-peer, taichi-wrong: `lsk bench --quick --only sparse`
#   with $LSK_BENCH_PYTHON a stand-in for the Python that runs the Taichi
#   peer (bench/peer_taichi.py), speaking its protocol: it says "skip"
#   (the case runs its C rows and says why the Taichi rows are skipped);
#   it gives the C structure's counts and sums at the --quick size (1024^2:
#   74240 cells, sums 94846 and 121663, 0; the rows against it are there);
#   it gives a dense sum one off (the bench fails and names Taichi's op).
cmake_minimum_required(VERSION 3.20)

if(NOT LSK OR NOT MODE)
  message(FATAL_ERROR "usage: cmake -DLSK=lsk -DWORK=dir -DMODE=json|bad-number|progress|trace|taichi-skip|taichi-peer|taichi-wrong -P ${CMAKE_SCRIPT_MODE_FILE}")
endif()

if(MODE STREQUAL "json")
  file(REMOVE_RECURSE "${WORK}")
  file(MAKE_DIRECTORY "${WORK}")
  file(COPY "${LSK}" DESTINATION "${WORK}")
  get_filename_component(name "${LSK}" NAME)
  file(WRITE "${WORK}/lsk-peer-boost"
    "#!/bin/sh\n"
    "# A stand-in for lsk-peer-boost (tests/bench_cli.cmake): infinite times.\n"
    "echo ready\n"
    "while read line; do echo 'reduce inf'; echo 'scan inf'; done\n")
  file(CHMOD "${WORK}/lsk-peer-boost" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  execute_process(COMMAND "${WORK}/${name}" bench --quick --no-build --only boost
                          --json "${WORK}/bench.json"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lsk bench failed (${rc})")
  endif()
  file(READ "${WORK}/bench.json" json)
  string(JSON ncases ERROR_VARIABLE jerr LENGTH "${json}" cases)
  if(jerr)
    message(FATAL_ERROR "${WORK}/bench.json is not JSON: ${jerr}\n${json}")
  endif()
  # The peer's samples are the boost rows' reference: null, not inf.
  set(nulls 0)
  math(EXPR last "${ncases} - 1")
  foreach(i RANGE ${last})
    string(JSON nref LENGTH "${json}" cases ${i} ref)
    if(nref GREATER 0)
      string(JSON type TYPE "${json}" cases ${i} ref 0)
      if(type STREQUAL "NULL")
        math(EXPR nulls "${nulls} + 1")
      endif()
    endif()
  endforeach()
  if(nulls EQUAL 0)
    message(FATAL_ERROR "no null sample in ${WORK}/bench.json (the stand-in peer's inf)\n${json}")
  endif()
  message("${WORK}/bench.json: valid JSON, ${ncases} cases, ${nulls} with a null sample")
elseif(MODE STREQUAL "bad-number")
  execute_process(COMMAND "${LSK}" bench --repeat 15x
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("status ${rc}: ${out}${err}")
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "lsk bench --repeat 15x: exit status ${rc}, wanted 2")
  endif()
  if(NOT err MATCHES "bad value '15x' for --repeat")
    message(FATAL_ERROR "lsk bench --repeat 15x: no message naming --repeat and '15x'")
  endif()
elseif(MODE STREQUAL "progress")
  # Not --quick (which has no progress line), but small and short.
  execute_process(COMMAND "${LSK}" bench --no-build --only launch --size 10 --repeat 1
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lsk bench failed (${rc})")
  endif()
  string(ASCII 13 cr)
  string(FIND "${err}" "${cr}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "stderr is not a terminal, yet lsk bench wrote \\r progress to it")
  endif()
elseif(MODE STREQUAL "trace")
  file(REMOVE_RECURSE "${WORK}")
  file(MAKE_DIRECTORY "${WORK}")
  set(trace "${WORK}/trace.json")
  execute_process(COMMAND "${LSK}" bench --quick --no-build --only launch --trace "${trace}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lsk bench --trace failed (${rc})")
  endif()
  if(NOT EXISTS "${trace}")
    message(FATAL_ERROR "lsk bench --trace: no ${trace}")
  endif()
  file(READ "${trace}" json)
  string(JSON nev ERROR_VARIABLE jerr LENGTH "${json}" traceEvents)
  if(jerr)
    message(FATAL_ERROR "${trace} is not trace-event JSON: ${jerr}")
  endif()
  set(slices 0)
  set(named 0)
  math(EXPR last "${nev} - 1")
  foreach(i RANGE ${last})
    string(JSON ev GET "${json}" traceEvents ${i})
    string(JSON ph GET "${ev}" ph)
    string(JSON name GET "${ev}" name)
    string(JSON tid GET "${ev}" tid)
    if(ph STREQUAL "M")
      if(name STREQUAL "thread_name")
        string(JSON qname GET "${ev}" args name)
        if(NOT tid EQUAL 0 OR NOT qname STREQUAL "default")
          message(FATAL_ERROR "${trace}: thread_name '${qname}' for tid ${tid}: ${ev}")
        endif()
        math(EXPR named "${named} + 1")
      endif()
    elseif(ph STREQUAL "X")
      string(JSON cat GET "${ev}" cat)
      string(JSON ts GET "${ev}" ts)
      string(JSON dur GET "${ev}" dur)
      if(NOT name STREQUAL "empty" OR NOT cat STREQUAL "kernel" OR NOT tid EQUAL 0
         OR ts MATCHES "^-" OR dur MATCHES "^-")
        message(FATAL_ERROR "${trace}: not a launch of 'empty' on queue 0: ${ev}")
      endif()
      math(EXPR slices "${slices} + 1")
    else()
      message(FATAL_ERROR "${trace}: event of phase '${ph}': ${ev}")
    endif()
  endforeach()
  if(NOT named EQUAL 1 OR slices LESS 400)
    message(FATAL_ERROR "${trace}: ${named} thread names, ${slices} slices (wanted 1 and >= 400)")
  endif()
  message("${trace}: valid trace-event JSON, ${slices} launches of 'empty' on the default queue")
elseif(MODE MATCHES "^taichi-")
  file(REMOVE_RECURSE "${WORK}")
  file(MAKE_DIRECTORY "${WORK}")
  set(dense 121663)
  if(MODE STREQUAL "taichi-wrong")
    set(dense 121664)
  endif()
  if(MODE STREQUAL "taichi-skip")
    set(body "echo 'skip stand-in: no taichi here'\n")
  else()
    set(body "echo 'ready Stand-in Taichi'\n"
             "while read line\ndo\n  echo 'round 0.001 74240 0.001 94846 0.001 ${dense} 0.001 0'\ndone\n")
  endif()
  file(WRITE "${WORK}/python" "#!/bin/sh\n# A stand-in for the Taichi peer's Python (tests/bench_cli.cmake).\n" ${body})
  file(CHMOD "${WORK}/python" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "LSK_BENCH_PYTHON=${WORK}/python"
                          "${LSK}" bench --quick --only sparse
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("status ${rc}: ${out}${err}")
  if(MODE STREQUAL "taichi-wrong")
    if(rc EQUAL 0 OR NOT err MATCHES "sparse: Taichi: dense gave 121664, C 121663")
      message(FATAL_ERROR "a wrong Taichi sum was not refused, naming the op")
    endif()
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "lsk bench --only sparse failed (${rc})")
  elseif(MODE STREQUAL "taichi-skip" AND
         NOT out MATCHES "sparse: Taichi rows skipped, stand-in: no taichi here")
    message(FATAL_ERROR "no note that the Taichi rows are skipped")
  elseif(MODE STREQUAL "taichi-peer" AND NOT out MATCHES "sparse update\\+sum, struct-for +Stand-in Taichi")
    message(FATAL_ERROR "no row against the stand-in Taichi")
  endif()
  if(NOT MODE STREQUAL "taichi-wrong" AND NOT out MATCHES "sparse update: struct-for +lsk dense loop")
    message(FATAL_ERROR "no struct-for row against lsk's dense loop")
  endif()
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
