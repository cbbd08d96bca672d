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
"triad vs raw OpenCL" 1.02903 0.99892
"triad vs C OpenMP" 1.0263 1.03201
"SoA views vs raw" 1.02602 1.01201
"SoA placement" 0.858686 0.835999
"AoS vs SoA" 0.337972 0.353233
"reduce vs raw OpenCL" 1.31876 1.04488
"reduce vs C OpenMP" 0.845952 0.680422
"scan vs triad bytes/s" 0.551134 0.437893
"scan vs C 1 thread" 2.01321 1.3353
"compact vs C" 0.61428 0.584999
"assoc vs C 1 thread" 0.914936 0.807007
"pool alloc+recycle (block)" 0.375551 0.317994
"pool alloc+recycle (item)" 0.0334373 0.0298098
"pic step" 0.534878 0.448475
"launch vs raw enqueue" 1.1038 0.818433
"build again vs cold (PoCL on)" 39854.3 40446.3
"cold + lsk store vs cold (PoCL on)" 1.05583 1.01132
"lsk cache vs cold (PoCL on)" 102.435 76.3255
"no lsk cache vs cold (PoCL on)" 3.83938 3.5614
"build again vs cold (PoCL off)" 32530.2 32932.3
"cold + lsk store vs cold (PoCL off)" 0.599179 0.570955
"lsk cache vs cold (PoCL off)" 37.0869 37.5763
"no lsk cache vs cold (PoCL off)" 1.00431 0.942456
EOD
plot $data using 2:xtic(1) title 'best', '' using 3 title 'median', 1 with lines lc 'black' dt 2 notitle
