/*
 * sparse_suites.h: the test suites of the sparse-front example, once: the
 * test binary lsk_sparse_tests registers them from this list (EX_MAIN in
 * check_front.c) and CMake reads the same lines for the sources and the
 * ctest tests (examples/CMakeLists.txt; in lsk's tree, tests/CMakeLists.txt
 * adds the runs on rusticl, oclgrind and a GPU's shapes).
 *
 * X(name, source, runs): as in pic_suites.h; source from examples/. The
 * names say "front": lsk's own suites of sparse fields are tests/sparse/.
 */
#ifndef LSK_SPARSE_SUITES_H
#define LSK_SPARSE_SUITES_H

/* clang-format off */
#define SPARSE_SUITES(X)                                                       \
  X(sparse_front, sparse/check_front.c, urn)                                   \
  X(grind_sparse_front, sparse/check_front.c, gn)
/* clang-format on */

#endif /* LSK_SPARSE_SUITES_H */
