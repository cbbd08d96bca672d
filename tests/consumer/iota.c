/* iota.c: a program outside lsk, built against the installed library
 * (tests/consumer.sh builds it with pkg-config and with find_package). */
#include <lsk/lsk.h>
#include <stdio.h>

static const char *source = "LSK_KERNEL void iota(LSK_CTX, __global uint *data, uint n)\n"
                            "{\n"
                            "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
                            "    LSK_FOREACH(it) {\n"
                            "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
                            "      if (i < n) data[i] = i;\n"
                            "    }\n"
                            "  }\n"
                            "}\n";

int main(void)
{
  enum { N = 10000 };
  static unsigned host[N];
  lsk_context *ctx = NULL;
  lsk_program *prog = NULL;
  lsk_kernel *k = NULL;
  lsk_buffer *data = NULL;
  lsk_launch cfg = {.domain = {256}, .blocks = {8}}; /* workers, simd: automatic */
  int rc = lsk_context_create(NULL, &ctx);
  if (!rc)
    rc = lsk_program_create(ctx, source, NULL, &prog);
  if (!rc)
    rc = lsk_kernel_create(prog, "iota", &k);
  if (!rc)
    rc = lsk_buffer_create(ctx, sizeof host, &data);
  if (!rc)
    rc = lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(data), LSK_ARG_UINT(N)), NULL);
  if (!rc)
    rc = lsk_buffer_read(data, 0, host, sizeof host, NULL);
  int bad = 0;
  for (unsigned i = 0; !rc && i < N; ++i)
    bad += host[i] != i;
  if (rc)
    fprintf(stderr, "iota: %s: %s\n", lsk_status_name(rc), lsk_context_errmsg(ctx));
  else
    printf("iota on %s: %s\n", lsk_context_device(ctx)->name, bad ? "WRONG" : "ok");
  lsk_buffer_destroy(data);
  lsk_kernel_destroy(k);
  lsk_program_destroy(prog);
  lsk_context_destroy(ctx);
  return rc || bad;
}
