# The cuda case of `lsk bench` (bench/peer_cuda.c) and its peer,
# lsk-peer-cuda (bench/peer_cuda.cu), where no GPU is needed:
#   cmake -DLSK=path/to/lsk [-DPEER=path/to/lsk-peer-cuda] -DWORK=dir
#         -DMODE=skip|peer-skip|stand-in|stand-in-wrong|peer -P bench_cuda.cmake
#
# skip: `lsk bench --quick --no-build --only cuda` on this build's device
#   (not an NVIDIA GPU in CI, or no peer built) says why the case is
#   skipped and exits 0; on an NVIDIA GPU with the peer (the GPU run), the
#   case runs instead and prints its 9 rows.
# peer-skip: the same with $LSK_BENCH_CUDA_PEER a stand-in that finds no
#   CUDA device ("skip <reason>"): the reason is passed on, exit 0.
# stand-in: a stand-in that is ready and answers every case with 1 ms: the
#   lsk side runs every case on this device, checks lsk's results against
#   the C references before and after the rounds, and prints one row per
#   case against CUDA's library.
# stand-in-wrong: a stand-in that answers with another case's name: the
#   bench fails and quotes the line.
# peer: the real peer, run alone at 2^16: with a CUDA device every case is
#   run and checked ("ready ..."), without one it says "skip ..." and exits
#   0; and --log2n 5 is a usage error (exit status 2).
cmake_minimum_required(VERSION 3.20)

if(NOT MODE OR NOT WORK)
  message(FATAL_ERROR "usage: cmake -DLSK=lsk -DWORK=dir -DMODE=skip|peer-skip|stand-in|stand-in-wrong|peer -P ${CMAKE_SCRIPT_MODE_FILE}")
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

if(MODE STREQUAL "peer")
  execute_process(COMMAND "${PEER}" --log2n 16 --repeat 1
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("status ${rc}: ${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^(skip no CUDA device|ready [0-9a-fA-F:.]+ )")
    message(FATAL_ERROR "lsk-peer-cuda neither ran nor said why it skips")
  endif()
  if(out MATCHES "^ready" AND NOT out MATCHES "random [0-9.]+\n$")
    message(FATAL_ERROR "lsk-peer-cuda did not time every case")
  endif()
  execute_process(COMMAND "${PEER}" --log2n 5 --repeat 1
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "--log2n must be 10..30")
    message(FATAL_ERROR "lsk-peer-cuda --log2n 5: status ${rc}, not a usage error: ${err}")
  endif()
  return()
endif()

set(env)
if(MODE STREQUAL "peer-skip")
  set(body "echo 'skip no CUDA device (stand-in)'\n")
elseif(MODE STREQUAL "stand-in")
  set(body "echo 'ready 0000:00:00.0 Stand-in GPU'\n"
           "while read line\ndo\n  echo \"$line 0.001\"\ndone\n")
elseif(MODE STREQUAL "stand-in-wrong")
  set(body "echo 'ready 0000:00:00.0 Stand-in GPU'\n"
           "while read line\ndo\n  echo 'scan 0.001'\ndone\n")
endif()
if(body)
  file(WRITE "${WORK}/peer" "#!/bin/sh\n# A stand-in for lsk-peer-cuda (tests/bench_cuda.cmake).\n" ${body})
  file(CHMOD "${WORK}/peer" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  set(env "LSK_BENCH_CUDA_PEER=${WORK}/peer")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} "${LSK}" bench --quick --no-build --only cuda
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("status ${rc}: ${out}${err}")
if(MODE STREQUAL "stand-in-wrong")
  if(rc EQUAL 0 OR NOT err MATCHES "cuda: unexpected line from lsk-peer-cuda: 'scan 0.001'")
    message(FATAL_ERROR "a wrong answer from the peer was not refused")
  endif()
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lsk bench --only cuda failed (${rc})")
endif()
if(MODE STREQUAL "skip" AND out MATCHES "cuda: lsk-peer-cuda on [0-9a-fA-F:.]+ ")
  # On an NVIDIA GPU with the peer built there is nothing to skip: the
  # case ran; each of its 9 rows is there.
  string(REGEX MATCHALL "cuda: [^\n]+ ms +[0-9.]+ ms" rows "${out}")
  list(LENGTH rows nrows)
  if(nrows LESS 9)
    message(FATAL_ERROR "the cuda case ran on a CUDA device but printed ${nrows} rows of 9")
  endif()
elseif(MODE STREQUAL "skip")
  if(NOT out MATCHES "cuda: skipped, (lsk-peer-cuda not built|lsk's device is not an NVIDIA GPU)")
    message(FATAL_ERROR "no reason for skipping the cuda case")
  endif()
  if(out MATCHES "cuda: [a-z]+.*CUB")
    message(FATAL_ERROR "a skipped case printed rows")
  endif()
elseif(MODE STREQUAL "peer-skip")
  if(NOT out MATCHES "cuda: skipped, lsk-peer-cuda: no CUDA device \\(stand-in\\)")
    message(FATAL_ERROR "the peer's reason to skip was not passed on")
  endif()
elseif(MODE STREQUAL "stand-in")
  foreach(row "triad \\(double\\) +CUDA triad kernel" "reduce sum \\(double\\) +CUB DeviceReduce::Sum"
              "exclusive scan \\(uint\\) +CUB DeviceScan::ExclusiveSum"
              "sort uint +CUB DeviceRadixSort keys" "sort uint by key +CUB DeviceRadixSort pairs"
              "histogram uint, 256 bins +CUB HistogramEven"
              "histogram uint, 65536 bins +CUB HistogramEven"
              "compact uint, 50% selected +CUB DeviceSelect::If"
              "random fill, uniform float +cuRAND Philox4x32-10")
    if(NOT out MATCHES "cuda: ${row}")
      message(FATAL_ERROR "no row 'cuda: ${row}'")
    endif()
  endforeach()
  if(NOT out MATCHES "lsk-peer-cuda on 0000:00:00.0 Stand-in GPU")
    message(FATAL_ERROR "the peer's device is not named")
  endif()
endif()
