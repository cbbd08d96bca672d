/*
 * sparse_adapter.h: the adapter of tests/sparse/sparse_kernels.cl (what
 * tests/sparse/sparse_fixture.c writes at run time) for the two
 * structures of the nvptx recipes, by hand: sparse_grid.sparse, and
 * sparse_list.sparse with -D SP_LIST. The struct-for's level: the leaf. A
 * level's functions take the axes of the nodes down to it (row: i).
 */
#define SP_T uint
#ifndef SP_LIST
#define SP_AT(c) (c)[0], (c)[1]
int sp_lv_activate(sp s, uint lv, const uint *c)
{
  switch (lv) {
  case 0: return sp_blk_activate(s, SP_AT(c));
  case 1: return sp_cell_activate(s, SP_AT(c));
  }
  return -1;
}
void sp_lv_deactivate(sp s, uint lv, const uint *c)
{
  switch (lv) {
  case 0: sp_blk_deactivate(s, SP_AT(c)); return;
  case 1: sp_cell_deactivate(s, SP_AT(c)); return;
  }
}
int sp_lv_is_active(sp s, uint lv, const uint *c)
{
  switch (lv) {
  case 0: return sp_blk_is_active(s, SP_AT(c));
  case 1: return sp_cell_is_active(s, SP_AT(c));
  }
  return -1;
}
#define SP_FOR_LV SP_FOR_CELL
#define SP_FOREACH_LV SP_FOREACH_CELL
#define SP_LV_POS sp_cell_pos
#define SP_LV_LEAF 1
#else
#define SP_AT(c) (c)[0], (c)[1]
#define SP_AT_LIST(c) (c)[0]
uint sp_append(sp s, const uint *c, SP_T v) { return sp_list_append(s, SP_AT_LIST(c), v); }
uint sp_length(sp s, const uint *c) { return sp_list_length(s, SP_AT_LIST(c)); }
int sp_lv_activate(sp s, uint lv, const uint *c)
{
  switch (lv) {
  case 0: return sp_row_activate(s, (c)[0]);
  }
  return -1;
}
void sp_lv_deactivate(sp s, uint lv, const uint *c)
{
  switch (lv) {
  case 0: sp_row_deactivate(s, (c)[0]); return;
  case 1: sp_list_deactivate(s, SP_AT_LIST(c)); return;
  }
}
int sp_lv_is_active(sp s, uint lv, const uint *c)
{
  switch (lv) {
  case 0: return sp_row_is_active(s, (c)[0]);
  case 1: return sp_list_is_active(s, SP_AT(c));
  }
  return -1;
}
#define SP_FOR_LV SP_FOR_LIST
#define SP_FOREACH_LV SP_FOREACH_LIST
#define SP_LV_POS sp_list_pos
#define SP_LV_LEAF 1
#endif
