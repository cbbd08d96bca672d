/* compact_rows.cl: a compaction predicate on the rows of an SoA layout
 * (tests/nvptx/row.layout: a column, a matrix, a scalar), checked with the
 * compaction kernels and the row copy behind it (lsk check --compact
 * @tests/nvptx/row.layout). */
int lsk_select(uint i, LSK_COMPACT_IN in, ulong arg)
{
  return row_const_e(in, i) * row_const_p(in, i, 1, 0) > as_float((uint)arg);
}
