/*
 * pixel_suites.h: the test suites of the pixel example, once: the test
 * binary lsk_pixel_tests registers them from this list (EX_MAIN in
 * check_pixel.c) and CMake reads the same lines for the sources and the
 * ctest tests (examples/CMakeLists.txt; in lsk's tree, tests/CMakeLists.txt
 * adds the runs on rusticl, oclgrind, a GPU's shapes and device groups).
 *
 * X(name, source, runs): as in pic_suites.h; source from examples/.
 */
#ifndef LSK_PIXEL_SUITES_H
#define LSK_PIXEL_SUITES_H

/* clang-format off */
#define PIXEL_SUITES(X)                                                        \
  X(pixel, pixel/check_pixel.c, urn)                                           \
  X(pixel_group, pixel/check_pixel_group.c, u)                                 \
  X(grind_pixel, pixel/check_pixel.c, go)                                      \
  X(grind_pixel_sizes, pixel/check_pixel.c, g)                                 \
  X(badinput_pixel, pixel/check_pixel_badinput.c, ur)                          \
  X(resource_pixel, pixel/check_pixel_limits.c, ur)                            \
  X(shapes_pixel, pixel/check_pixel_limits.c, un)                              \
  X(pixel_large, pixel/check_pixel_large.c, urn)                               \
  X(grind_pixel_large, pixel/check_pixel_large.c, go)                          \
  X(pixel_invalid, pixel/check_pixel_invalid.c, urn)                           \
  X(pixel_cut, pixel/check_pixel_cut.c, urn)
/* clang-format on */

#endif /* LSK_PIXEL_SUITES_H */
