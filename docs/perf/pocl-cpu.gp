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
"triad vs raw OpenCL" 1.03365 0.870999
"triad vs C OpenMP" 1.13945 0.969079
"SoA views vs raw" 1.02449 1.01772
"SoA placement" 0.562861 0.796415
"AoS vs SoA" 0.318862 0.294363
"reduce vs raw OpenCL" 1.68034 1.28416
"reduce vs C OpenMP" 0.921307 0.906823
"scan vs triad bytes/s" 0.517361 0.441251
"scan vs C 1 thread" 2.07515 1.81544
"float reduce vs Boost.Compute" 8.74695 6.58479
"float scan vs Boost.Compute" 2.43337 1.79908
"compact vs C" 1.02489 0.867302
"assoc vs C 1 thread" 0.927117 1.06073
"assoc sorted vs C 1 thread" 1.20406 1.30372
"pool alloc+recycle (block)" 0.905752 0.973548
"pool alloc+recycle (item)" 0.0533937 0.0502798
"pic step" 1.25387 1.26001
"pixel events" 1.76673 1.65038
"launch vs raw enqueue" 0.795086 0.872715
"build again vs cold (PoCL on)" 40705.6 40205.6
"cold + lsk store vs cold (PoCL on)" 1.02812 1.4098
"lsk cache vs cold (PoCL on)" 110.611 131.549
"no lsk cache vs cold (PoCL on)" 3.57863 4.82734
"build again vs cold (PoCL off)" 35860.5 32632.9
"cold + lsk store vs cold (PoCL off)" 0.563807 0.513377
"lsk cache vs cold (PoCL off)" 45.2949 38.8609
"no lsk cache vs cold (PoCL off)" 0.982938 1.14977
EOD
plot $data using 2:xtic(1) title 'best', '' using 3 title 'median', 1 with lines lc 'black' dt 2 notitle
