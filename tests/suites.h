/*
 * suites.h: every test suite of lsk_tests, once. The test main registers
 * them from this list (check_main.c), testutil.h declares them, and CMake
 * reads the same lines for the sources to build and the ctest tests to
 * register (tests/CMakeLists.txt): a suite added here is built, runnable
 * and run; nothing else to keep in step.
 *
 * X(name, source, runs): name is the suite (`lsk_tests name`, the function
 * suite_<name>); source its file from the repository's root; runs where
 * ctest runs it: u as test <name> on the default device (PoCL), r as
 * rusticl_<name> on Mesa's rusticl, g as oclgrind_<name> under oclgrind;
 * with an NVIDIA GPU's shapes (LSK_SHAPES=nvidia, ctest label gpushape:
 * docs/gpu-shapes.md), n as gpushape_<name> on the default device and o as
 * gpushape_oclgrind_<name> under oclgrind; none: a test of its own in
 * tests/CMakeLists.txt.
 *
 * The examples' suites are not here: each example lists its own in
 * examples/<x>/<x>_suites.h, built into its own test binary
 * (lsk_<x>_tests), and tests/CMakeLists.txt registers them the same ways.
 */
#ifndef LSK_TEST_SUITES_H
#define LSK_TEST_SUITES_H

/* clang-format off */
#define LSK_TEST_SUITES(X)                                                     \
  /* core */                                                                   \
  X(status, tests/core/check_status.c, u)                                      \
  X(device, tests/core/check_device.c, ur)                                     \
  X(errors, tests/core/check_errors.c, ur)                                     \
  X(errmsg, tests/core/check_errmsg.c, u)                                      \
  X(cache, tests/core/check_cache.c, ur)                                       \
  X(resource, tests/core/check_resource.c, ur)                                 \
  X(threads, tests/core/check_threads.c, ur)                                   \
  X(queues, tests/core/check_queues.c, ur)                                     \
  X(grind_queues, tests/core/check_queues.c, g)                                \
  X(trace, tests/core/check_trace.c, ur)                                       \
  X(ledger_canary, tests/check_ledger.c, none)                                       \
  /* the device library */                                                     \
  X(mapping, tests/device/check_mapping.c, urn)                                \
  X(verify, tests/device/check_verify.c, ur)                                   \
  X(block, tests/device/check_block.c, ur)                                     \
  X(grind, tests/device/check_grind.c, urgno)                                  \
  X(grind_types, tests/device/check_grind_types.c, ug)                         \
  X(grind_vsum, tests/device/check_grind_types.c, ug)                          \
  X(grind_planted, tests/device/check_grind_planted.c, none)                   \
  X(random, tests/device/check_random.c, urg)                                  \
  X(foreach_var, tests/device/check_foreach_var.c, urn)                        \
  X(grind_foreach_var, tests/device/check_foreach_var.c, go)                   \
  /* launch */                                                                 \
  X(iota, tests/launch/check_iota.c, ur)                                       \
  X(tune, tests/launch/check_tune.c, urn)                                      \
  X(group, tests/launch/check_group.c, un)                                     \
  X(group_devices, tests/launch/check_group.c, none)                           \
  X(shapes, tests/launch/check_shapes.c, u)                                    \
  X(barrier, tests/launch/check_barrier.c, un)                                 \
  X(launch_for, tests/launch/check_launch_for.c, urn)                          \
  /* soa */                                                                    \
  X(layout, tests/soa/check_layout.c, u)                                       \
  X(soa, tests/soa/check_soa.c, ur)                                            \
  X(soa_args, tests/soa/check_soa_args.c, ur)                                  \
  X(soa_views, tests/soa/check_soa_views.c, ur)                                \
  X(grind_soa_views, tests/soa/check_soa_views.c, g)                           \
  X(grind_soa, tests/soa/check_grind_soa.c, ug)                                \
  X(stagger, tests/soa/check_stagger.c, ug)                                    \
  /* algo */                                                                   \
  X(reduce, tests/algo/check_reduce.c, ur)                                     \
  X(scan, tests/algo/check_scan.c, ur)                                         \
  X(compact, tests/algo/check_compact.c, ur)                                   \
  X(grind_compact, tests/algo/check_compact.c, gno)                            \
  X(assoc, tests/algo/check_assoc.c, ur)                                       \
  X(grind_algo, tests/algo/check_grind_algo.c, urgno)                          \
  X(random_fill, tests/algo/check_random_fill.c, ur)                           \
  X(grind_random, tests/algo/check_random_fill.c, gn)                          \
  X(histogram, tests/algo/check_histogram.c, ur)                               \
  X(grind_histogram, tests/algo/check_histogram.c, gno)                        \
  X(grid, tests/algo/check_grid.c, ur)                                         \
  X(grind_grid, tests/algo/check_grid.c, gn)                                   \
  X(sort, tests/algo/check_sort.c, ur)                                         \
  X(grind_sort, tests/algo/check_sort.c, gn)                                   \
  /* mem */                                                                    \
  X(vector, tests/mem/check_vector.c, ur)                                      \
  X(grind_vector, tests/mem/check_vector.c, gn)                                \
  X(pool, tests/mem/check_pool.c, ur)                                          \
  X(chunklist, tests/mem/check_chunklist.c, ur)                                \
  X(grind_pool, tests/mem/check_grind_pool.c, urgno)                           \
  X(pool_cache, tests/mem/check_pool_cache.c, urgno)                           \
  /* sparse structures */                                                      \
  X(sparse_def, tests/sparse/check_sparse_def.c, u)                            \
  X(sparse, tests/sparse/check_sparse.c, ur)                                   \
  X(sparse_for, tests/sparse/check_sparse_for.c, urn)                          \
  X(sparse_tree, tests/sparse/check_sparse_tree.c, ur)                         \
  X(grind_sparse, tests/sparse/check_grind_sparse.c, gno)                      \
  /* bad input to every public function */                                     \
  X(badinput_core, tests/badinput/check_badinput_core.c, ur)                   \
  X(badinput_data, tests/badinput/check_badinput_data.c, ur)                   \
  X(badinput_objects, tests/badinput/check_badinput_objects.c, ur)             \
  X(badinput_queues, tests/badinput/check_badinput_queues.c, ur)               \
  X(badinput_group, tests/badinput/check_badinput_group.c, ur)                \
  X(badinput_sparse, tests/badinput/check_badinput_sparse.c, ur)
/* clang-format on */

#endif /* LSK_TEST_SUITES_H */
