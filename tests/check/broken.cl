/* broken.cl: a kernel with an error on line 8, for `lsk check`'s tests
 * (tests/CMakeLists.txt: check_broken): every compiler must name this
 * file's line 8, not a line counted in the text with the device library. */
LSK_DECLARE_DOMAIN(broken, 64);
LSK_KERNEL void broken(LSK_CTX, __global uint *data)
{
  LSK_FOREACH(it) {
    data[it.idx] = undeclared_thing_xyz + it.idx;
  }
}
