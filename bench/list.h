/*
 * bench/list.h: the cases of `lsk bench`, one declarative list. It is the
 * only place a case is named: the prototypes in bench.h, the table that
 * runs them and that --only selects from, and the case list of the usage
 * and --help text (cases.c) are all expanded from it, so that they cannot
 * disagree. Order is run order.
 *
 * X(name, flags, help): the case runs bench_case_<name>(bench *); flags is
 * 0, BENCH_CASE_BUILD (a case --no-build leaves out) or
 * BENCH_CASE_BANDWIDTH (a case whose rows are read against the limit);
 * help is one line for --help.
 *
 * Where each case lives:
 *   limit          limit.c: the best STREAM triad of the run (C OpenMP and
 *                  raw OpenCL, arrays that do not alias), the measure of
 *                  the bandwidth-bound rows; run first whenever one of the
 *                  BENCH_CASE_BANDWIDTH cases runs
 *   triad, launch  triad.c, launch.c
 *   soa            soa.c: the triad through generated SoA views (plain
 *                  and with lsk's column stagger), and through an array
 *                  of structs, against the raw triad
 *   reduce, scan   algo.c: the kernel library's reduce and scan
 *   boost          peer.c: lsk's float reduce and scan against
 *                  Boost.Compute's, run by the optional lsk-peer-boost
 *                  next to this program (skipped without)
 *   cuda           peer_cuda.c: the bench's cases against CUDA's (CUB,
 *                  cuRAND) on the same GPU, run by the optional
 *                  lsk-peer-cuda next to this program (skipped without
 *                  it, or where lsk's device is not an NVIDIA GPU)
 *   compact        compact.c: compaction of 2^log2n uints, half selected
 *   assoc          assoc.c: lsk_assoc_build against a C count-then-fill
 *   histogram      histogram.c: lsk_histogram_uint into 256 and 65536 bins
 *                  against a C count
 *   sort           sort.c: lsk_sort and lsk_sort_by_key of 2^24 uints
 *                  against a C LSD radix sort and qsort
 *   random         random.c: lsk_random_fill of uniform floats against a
 *                  single-threaded C Philox, and its bytes per second
 *                  beside the raw triad's
 *   pool           pool.c: pool allocation against C; its binning step
 *                  row (the pic example's step against C) in
 *                  examples/pic/bench_pic.c
 *   pixel, streams examples/pixel/bench_pixel.c: the pixel clustering
 *                  pipeline against its C reference; the pipeline over 2
 *                  and 4 streams against 1
 *   bufcache, overlap
 *                  queues.c: the buffer cache against clCreateBuffer per
 *                  step; pinned uploads beside kernels on two queues
 *                  against one queue
 *   sparse         sparse.c: sparse fields (struct-for, activation, the
 *                  GC) on a ring of a 4096^2 grid against a C block table
 *                  (sparse_ref.c) and Taichi (sparse_taichi.c runs
 *                  peer_taichi.py; skipped where taichi does not import)
 *   mpi            mpi.c: `lsk mpi heat` and `lsk mpi pic` on 2 ranks against 1, `lsk mpi
 *                  halo` against memcpy, as mpirun children (skipped
 *                  without MPI)
 *   build          build.c (its child processes: child.c)
 */
#ifndef LSK_BENCH_LIST_H
#define LSK_BENCH_LIST_H

#define BENCH_CASES(X)                                                                             \
  X(limit, 0, "the best STREAM triad of the run (C OpenMP, raw OpenCL; arrays that do not alias)") \
  X(triad, BENCH_CASE_BANDWIDTH, "the triad a = b + 3c (ForEach) against raw OpenCL and C OpenMP") \
  X(soa, BENCH_CASE_BANDWIDTH,                                                                     \
    "the triad through SoA views (also staggered), and over an array of structs")                  \
  X(reduce, BENCH_CASE_BANDWIDTH, "lsk_reduce (double sum) against raw OpenCL and C OpenMP")       \
  X(scan, BENCH_CASE_BANDWIDTH, "lsk_scan (exclusive, uint) against a raw uint triad and C")       \
  X(boost, 0, "float reduce and scan against Boost.Compute (lsk-peer-boost)")                      \
  X(cuda, 0, "the bench's cases against CUDA, CUB and cuRAND on the GPU (lsk-peer-cuda)")          \
  X(compact, 0, "lsk_compact, half of 2^log2n uints selected, against C")                          \
  X(assoc, 0, "lsk_assoc_build and lsk_assoc_build_sorted against C")                              \
  X(histogram, 0, "lsk_histogram_uint into 256 and 65536 bins against C")                          \
  X(random, 0, "lsk_random_fill of uniform floats against a C Philox, beside the triad")           \
  X(sort, 0, "lsk_sort and lsk_sort_by_key of 2^24 uints against C radix and qsort")               \
  X(pool, 0, "pool allocation and recycling, and the pic binning step, against C")                 \
  X(pixel, 0, "the pixel clustering pipeline against its C reference")                             \
  X(streams, 0, "the pixel pipeline as batches over 2 and 4 streams against 1")                    \
  X(bufcache, 0, "lsk_buffer_alloc/free per step against clCreateBuffer/clReleaseMemObject")       \
  X(overlap, 0, "pinned uploads beside kernels on two queues against one queue")                   \
  X(sparse, 0, "sparse fields on a ring of a 4096^2 grid against a C block table and Taichi")      \
  X(mpi, 0, "lsk mpi: heat and pic on 2 ranks against 1, the halo exchange against memcpy")        \
  X(launch, 0, "launch overhead of an empty kernel against raw clEnqueueNDRangeKernel")            \
  X(build, BENCH_CASE_BUILD, "build cost: cold, again, lsk's disk cache, new processes")

#endif /* LSK_BENCH_LIST_H */
