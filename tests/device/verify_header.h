/* verify_header.h: OpenCL C included by a kernel of check_verify.c
 * (test_verify_file_and_line): an LSK_VERIFY in an #include'd header names
 * the header's path and its own line. Keep the LSK_VERIFY1 on line 5. */

LSK_INLINE void check_positive(LSK_CTX, int x) { LSK_VERIFY1(x > 0, "not positive", x); }
