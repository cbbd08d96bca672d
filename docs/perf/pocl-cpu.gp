# written by lsk bench --plot; run: gnuplot docs/perf/pocl-cpu.gp
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo size 1200,700 font ',10'
} else {
  set terminal png size 1200,700
}
set output 'docs/perf/pocl-cpu.png'
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
"triad vs raw OpenCL" 1.00065 0.984348
"triad vs C OpenMP" 1.05337 1.01559
"launch vs raw enqueue" 0.958168 0.813343
"build again vs cold (PoCL on)" 29046.5 26473.8
"cold + lsk store vs cold (PoCL on)" 0.896676 0.85584
"lsk cache vs cold (PoCL on)" 112.661 97.9047
"no lsk cache vs cold (PoCL on)" 4.31299 4.32597
"build again vs cold (PoCL off)" 27581.4 27715.3
"cold + lsk store vs cold (PoCL off)" 0.551765 0.518309
"lsk cache vs cold (PoCL off)" 36.2666 30.4596
"no lsk cache vs cold (PoCL off)" 1.02326 1.04196
EOD
plot $data using 2:xtic(1) title 'best', '' using 3 title 'median', 1 with lines lc 'black' dt 2 notitle
