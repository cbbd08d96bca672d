/* compact_uint.cl: a compaction predicate on a plain uint buffer, checked
 * with the compaction kernels behind it (lsk check --compact uint). */
int lsk_select(uint i, LSK_COMPACT_IN in, ulong arg) { return in[i] > (uint)arg; }
