# written by lsk bench --plot; run: gnuplot docs/perf/pocl-cpu.gp
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo size 1200,700 font ',10'
} else {
  set terminal png size 1200,700
}
set output 'docs/perf/pocl-cpu.png'
set title "lsk 0.1.0 bench on pthread-skylake-avx512-AMD EPYC (driver 3.1+debian), 2026-11-22\nspeed ratio: comparison time / lsk time (above 1: lsk faster)"
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
"triad vs raw OpenCL" 1.0137 0.9722
"triad vs C OpenMP" 1.05379 0.992205
"SoA views vs raw" 1.00854 0.991073
"SoA placement" 0.56566 0.71868
"AoS vs SoA" 0.292015 0.319234
"reduce vs raw OpenCL" 2.27443 1.77114
"reduce vs C OpenMP" 1.16051 0.742732
"scan vs triad bytes/s" 0.582494 0.576303
"scan vs C 1 thread" 2.28765 2.17589
"float reduce vs Boost.Compute" 7.60296 6.72368
"float scan vs Boost.Compute" 3.15476 2.87054
"compact vs C" 1.12041 1.08627
"assoc vs C 1 thread" 0.884447 0.881528
"assoc sorted vs C 1 thread" 1.1901 1.15245
"pool alloc+recycle (block)" 1.20871 1.2502
"pool alloc+recycle (item)" 0.0471305 0.0323311
"pic step" 1.57777 1.54945
"pixel events" 1.83541 1.81364
"launch vs raw enqueue" 0.821631 0.680172
"build again vs cold (PoCL on)" 35666.8 34918.7
"cold + lsk store vs cold (PoCL on)" 1.13095 1.15684
"lsk cache vs cold (PoCL on)" 100.037 100.425
"no lsk cache vs cold (PoCL on)" 4.65069 4.73779
"build again vs cold (PoCL off)" 37689.1 24920.6
"cold + lsk store vs cold (PoCL off)" 0.582888 0.597368
"lsk cache vs cold (PoCL off)" 44.8314 44.8624
"no lsk cache vs cold (PoCL off)" 0.993913 1.01545
EOD
plot $data using 2:xtic(1) title 'best', '' using 3 title 'median', 1 with lines lc 'black' dt 2 notitle
