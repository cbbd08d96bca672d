/*
 * check_ptx.h: `lsk check`'s reading of the texts NVIDIA's tools write:
 * PTX (clang's, for nvptx64-nvidia-nvcl), ptxas -v's report and the SASS
 * that cuobjdump -sass or nvdisasm print of ptxas's cubin. Text in,
 * figures out: no files, no processes, nothing of the check's state.
 */
#ifndef LSK_TOOLS_CHECK_PTX_H
#define LSK_TOOLS_CHECK_PTX_H

#include <stddef.h>

/* What ptxas -v says of one entry: registers, barriers, its stack frame,
 * spill stores and loads and its static shared memory, in bytes. */
typedef struct check_sass {
  unsigned regs, barriers;
  unsigned long long stack, spill_st, spill_ld, smem;
} check_sass;

/* The next ".entry NAME" at or after p: its name into name (cap bytes,
 * cut if longer) and a pointer past the keyword, for the next search;
 * NULL when there is none. */
const char *ptx_next_entry(const char *p, char *name, size_t cap);

/* The body of entry name in ptx: from its '{' to the matching '}' (the
 * parameters and any performance directives before it skipped), its
 * length in *len; NULL if absent. */
const char *ptx_entry_body(const char *ptx, const char *name, size_t *len /* OUT */);

/* The static shared memory of entry name, in bytes: its own .shared
 * declarations and those of the module that its body names; 0 if absent. */
unsigned long long ptx_entry_shared(const char *ptx, const char *name);

/* ptxas -v's lines for entry name into *out: 0 if found, -1 if the
 * report says nothing of it (*out then zero). */
int sass_entry(const char *sass, const char *name, check_sass *out /* OUT */);

/* One kernel's global memory instructions in its SASS, by width: LDG and
 * STG whose modifiers say .128 (16 bytes a lane) or .64 (8 bytes). Each
 * instruction counts once, where it stands in the code (not how often it
 * runs); whatever else it carries (.E, .CONSTANT, .SYS, a predicate @P0)
 * does not matter. */
typedef struct check_ldst {
  unsigned ld128, st128, ld64, st64;
} check_ldst;

/* The global loads and stores of kernel name in sass, the text of
 * `cuobjdump -sass` (a "Function : NAME" line opens each kernel) or of
 * `nvdisasm` (a ".text.NAME:" label): 0 with *out filled, -1 if the text
 * has no code of that name (*out then zero). */
int sass_ldst(const char *sass, const char *name, check_ldst *out /* OUT */);

#endif /* LSK_TOOLS_CHECK_PTX_H */
