# written by lsk bench --plot; run: gnuplot ../docs/perf/pocl-cpu.gp
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo size 1200,700 font ',10'
} else {
  set terminal png size 1200,700
}
set output '../docs/perf/pocl-cpu.png'
set title "lsk 0.1.0 bench on pthread-skylake-avx512-AMD EPYC (driver 3.1+debian), 2026-11-21\nspeed ratio: comparison time / lsk time (above 1: lsk faster)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set logscale y
set grid ytics
set key top left
set xtics rotate by 30 right noenhanced
set ylabel 'ratio (log scale)'
set bmargin 10
set lmargin 22
$data << EOD
"triad vs raw OpenCL" 0.977594 0.975708
"triad vs C OpenMP" 1.01292 0.990804
"SoA views vs raw" 1.09314 1.00789
"SoA placement" 0.593828 0.803461
"AoS vs SoA" 0.27223 0.297849
"reduce vs raw OpenCL" 1.34504 1.25076
"reduce vs C OpenMP" 0.813981 0.747454
"scan vs triad bytes/s" 0.521371 0.409158
"scan vs C 1 thread" 2.09072 1.39986
"compact vs C" 0.988395 0.620287
"assoc vs C 1 thread" 0.896524 0.838388
"pool alloc+recycle (block)" 0.365313 0.325547
"pool alloc+recycle (item)" 0.0410876 0.0327445
"pic step" 0.453363 0.437499
"launch vs raw enqueue" 0.879934 0.767018
"build again vs cold (PoCL on)" 35870.7 35943.3
"cold + lsk store vs cold (PoCL on)" 1.00529 0.940568
"lsk cache vs cold (PoCL on)" 96.1908 72.6882
"no lsk cache vs cold (PoCL on)" 4.40643 3.34439
"build again vs cold (PoCL off)" 38141.8 34581.5
"cold + lsk store vs cold (PoCL off)" 0.559952 0.547606
"lsk cache vs cold (PoCL off)" 39.8824 38.0558
"no lsk cache vs cold (PoCL off)" 1.02379 0.943817
EOD
plot $data using 2:xtic(1) title 'best', '' using 3 title 'median', 1 with lines lc 'black' dt 2 notitle
