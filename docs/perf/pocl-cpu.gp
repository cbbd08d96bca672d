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
"triad vs raw OpenCL" 0.989509 0.987063
"triad vs C OpenMP" 1.0541 1.00793
"SoA views vs raw" 1.03959 1.04694
"SoA placement" 0.825976 0.824357
"AoS vs SoA" 0.33795 0.339326
"reduce vs raw OpenCL" 1.43067 1.27911
"reduce vs C OpenMP" 0.880695 0.773604
"scan vs triad bytes/s" 0.385462 0.340148
"scan vs C 1 thread" 2.1607 1.93421
"compact vs C" 0.757456 0.729309
"assoc vs C 1 thread" 0.911485 0.858563
"pool alloc+recycle (block)" 0.348837 0.389238
"pool alloc+recycle (item)" 0.0335255 0.0231515
"pic step" 0.549259 0.528325
"launch vs raw enqueue" 0.730688 0.900991
"build again vs cold (PoCL on)" 34719.8 34223.9
"cold + lsk store vs cold (PoCL on)" 1.13554 1.11902
"lsk cache vs cold (PoCL on)" 103.422 98.4771
"no lsk cache vs cold (PoCL on)" 4.68803 4.69226
"build again vs cold (PoCL off)" 34642.1 35319.2
"cold + lsk store vs cold (PoCL off)" 0.561068 0.547363
"lsk cache vs cold (PoCL off)" 44.9691 38.6626
"no lsk cache vs cold (PoCL off)" 1.01224 0.951442
EOD
plot $data using 2:xtic(1) title 'best', '' using 3 title 'median', 1 with lines lc 'black' dt 2 notitle
