/*
 * heat_suites.h: the test suites of the heat example, once: the test
 * binary lsk_heat_tests registers them from this list (EX_MAIN in
 * check_heat.c) and CMake reads the same lines for the sources and the
 * ctest tests (examples/CMakeLists.txt; in lsk's tree, tests/CMakeLists.txt
 * adds the runs on rusticl, oclgrind and a GPU's shapes).
 *
 * X(name, source, runs): as in pic_suites.h; source from examples/.
 */
#ifndef LSK_HEAT_SUITES_H
#define LSK_HEAT_SUITES_H

/* clang-format off */
#define HEAT_SUITES(X)                                                         \
  X(heat, heat/check_heat.c, ur)                                               \
  X(grind_heat, heat/check_heat.c, gn)
/* clang-format on */

#endif /* LSK_HEAT_SUITES_H */
