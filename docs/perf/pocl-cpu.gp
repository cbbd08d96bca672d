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
"triad vs raw OpenCL" 0.963668 1.02568
"triad vs C OpenMP" 1.00522 1.0561
"SoA views vs raw" 1.0372 0.99361
"SoA placement" 0.849613 0.846458
"AoS vs SoA" 0.320663 0.335039
"reduce vs raw OpenCL" 1.69689 1.55782
"reduce vs C OpenMP" 0.986122 0.842695
"scan vs triad bytes/s" 0.554065 0.571656
"scan vs C 1 thread" 2.2197 1.96253
"float reduce vs Boost.Compute" 7.49638 5.14772
"float scan vs Boost.Compute" 2.91069 2.02986
"compact vs C" 1.11086 1.05555
"assoc vs C 1 thread" 1.0097 0.983434
"pool alloc+recycle (block)" 0.962554 1.03818
"pool alloc+recycle (item)" 0.0619234 0.0357962
"pic step" 0.752852 0.531976
"launch vs raw enqueue" 1.05584 0.889899
"build again vs cold (PoCL on)" 34209.9 27944.2
"cold + lsk store vs cold (PoCL on)" 1.08666 0.854058
"lsk cache vs cold (PoCL on)" 101.354 77.7184
"no lsk cache vs cold (PoCL on)" 4.69834 2.97252
"build again vs cold (PoCL off)" 36585 40216.7
"cold + lsk store vs cold (PoCL off)" 0.56836 0.531141
"lsk cache vs cold (PoCL off)" 40.1019 38.2544
"no lsk cache vs cold (PoCL off)" 0.983878 0.855351
EOD
plot $data using 2:xtic(1) title 'best', '' using 3 title 'median', 1 with lines lc 'black' dt 2 notitle
