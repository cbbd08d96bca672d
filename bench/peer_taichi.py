#!/usr/bin/env python3
"""bench/peer_taichi.py: Taichi as a peer in `lsk bench --only sparse`.

The sparse case's workload (bench/sparse_case.h) in Taichi on the CPU: a grid of
n x n cells as ti.root.pointer(ti.ij, n/16).dense(ti.ij, 16).place(x), and
the same round lsk and the C structure run, op by op:
  activate    x = 1 in the ring, a loop over all n^2 cells
  update      x = 0.5 x + 1 over the active cells (struct-for), and the sum
  dense       the same update over all n^2 cells, each looked up through
              ti.is_active of its block, and the sum
  deactivate  deactivate_all of the pointer level, then the active cells
              counted (0): the count forces the GC to completion
Each op is timed on the host's monotonic clock to completion (ti.sync, or
a value returned).

Protocol (the bench starts it once, as `python3 peer_taichi.py --n N
--threads T`): it writes "skip REASON" and exits 0 where taichi does not
import or start; otherwise it compiles and warms up, writes "ready NAME",
then for each line "round" it reads runs one round and writes
"round S0 V0 S1 V1 S2 V2 S3 V3" (seconds and value of each op: the active
cells after activate and deactivate, the sums of update and dense). It
ends at the end of its input. Taichi's own printing goes to /dev/null, so
stdout carries the protocol only.
"""
import argparse
import os
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--threads", type=int, required=True)
    args = ap.parse_args()
    out = os.fdopen(os.dup(1), "w")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # Taichi's banner and logs: not into the protocol
    try:
        import taichi as ti

        ti.init(arch=ti.cpu, cpu_max_num_threads=args.threads, log_level=ti.ERROR)
    except Exception as e:  # noqa: BLE001 - any failure means: skip the rows
        out.write("skip taichi does not import or start (%s)\n" % str(e).splitlines()[0][:200])
        out.flush()
        return 0
    ops = build(ti, args.n)
    for _ in range(2):  # the compiles, and warm-up
        run_round(ti, ops)
    name = "Taichi %s CPU, %d threads" % (ti.__version__, args.threads)
    if isinstance(ti.__version__, tuple):
        name = "Taichi %s CPU, %d threads" % (".".join(map(str, ti.__version__)), args.threads)
    out.write("ready %s\n" % name)
    out.flush()
    for line in sys.stdin:
        if line.strip() != "round":
            out.write("error unexpected line %r\n" % line)
            out.flush()
            return 1
        r = run_round(ti, ops)
        out.write("round " + " ".join("%.9g %.17g" % sv for sv in r) + "\n")
        out.flush()
    return 0


def build(ti, n):
    """The structure and the kernels; n, the centre and radii are constants."""
    x = ti.field(ti.f32)
    blk = ti.root.pointer(ti.ij, n // 16)
    blk.dense(ti.ij, 16).place(x)
    c = n // 2
    r0 = n * 1000 // 4096
    r1 = n * 1100 // 4096
    r0sq, r1sq = r0 * r0, r1 * r1

    @ti.kernel
    def activate():
        for i, j in ti.ndrange(n, n):
            di = i - c
            dj = j - c
            d = di * di + dj * dj
            if d >= r0sq and d < r1sq:
                x[i, j] = 1.0

    @ti.kernel
    def count() -> ti.i64:
        k = ti.i64(0)
        for i, j in blk:
            k += 1
        return k * 256

    @ti.kernel
    def update() -> ti.f64:
        s = ti.f64(0.0)
        for i, j in x:
            v = 0.5 * x[i, j] + 1.0
            x[i, j] = v
            s += ti.cast(v, ti.f64)
        return s

    @ti.kernel
    def dense() -> ti.f64:
        s = ti.f64(0.0)
        for i, j in ti.ndrange(n, n):
            if ti.is_active(blk, [i // 16, j // 16]):
                v = 0.5 * x[i, j] + 1.0
                x[i, j] = v
                s += ti.cast(v, ti.f64)
        return s

    def deactivate():
        blk.deactivate_all()
        return count()

    return activate, count, update, dense, deactivate


def run_round(ti, ops):
    activate, count, update, dense, deactivate = ops
    r = []
    t0 = time.perf_counter()
    activate()
    ti.sync()
    r.append((time.perf_counter() - t0, count()))
    for op in (update, dense, deactivate):
        t0 = time.perf_counter()
        v = op()
        r.append((time.perf_counter() - t0, v))
    return r


if __name__ == "__main__":
    sys.exit(main())
