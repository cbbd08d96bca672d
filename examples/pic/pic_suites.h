/*
 * pic_suites.h: the test suites of the binning example, once: the test
 * binary lsk_pic_tests registers them from this list (EX_MAIN in
 * check_pic.c) and CMake reads the same lines for the sources and the
 * ctest tests (examples/CMakeLists.txt; in lsk's tree, tests/CMakeLists.txt
 * adds the runs on rusticl, oclgrind and a GPU's shapes).
 *
 * X(name, source, runs): name is the suite (`lsk_pic_tests name`, the
 * function suite_<name>); source its file from examples/; runs as in
 * tests/suites.h: u on the default device, r on rusticl, g under oclgrind,
 * n and o the same two with an NVIDIA GPU's shapes.
 */
#ifndef LSK_PIC_SUITES_H
#define LSK_PIC_SUITES_H

/* clang-format off */
#define PIC_SUITES(X)                                                          \
  X(pic, pic/check_pic.c, ur)                                                  \
  X(grind_pic, pic/check_pic.c, gn)                                            \
  X(grind_pool_pic, pic/check_pic.c, urgno)                                    \
  X(badinput_pic, pic/check_pic_badinput.c, ur)
/* clang-format on */

#endif /* LSK_PIC_SUITES_H */
