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
"triad vs raw OpenCL" 1.00724 0.997873
"triad vs C OpenMP" 1.00887 1.02719
"SoA views vs raw" 1.05146 1.16731
"SoA placement" 0.578618 0.553598
"AoS vs SoA" 0.289698 0.297588
"reduce vs raw OpenCL" 1.404 1.21374
"reduce vs C OpenMP" 0.867079 0.721591
"scan vs triad bytes/s" 0.582987 0.447076
"scan vs C 1 thread" 2.15251 1.52688
"float reduce vs Boost.Compute" 5.72953 5.30152
"float scan vs Boost.Compute" 2.67821 2.17322
"compact vs C" 1.11308 0.998788
"assoc vs C 1 thread" 0.940936 0.922327
"assoc sorted vs C 1 thread" 1.0999 1.00609
"pool alloc+recycle (block)" 1.35754 1.52639
"pool alloc+recycle (item)" 0.0566424 0.0383233
"pic step" 1.61322 1.35015
"pixel events" 1.84134 1.78492
"launch vs raw enqueue" 0.605333 0.752984
"build again vs cold (PoCL on)" 39507.3 36003.1
"cold + lsk store vs cold (PoCL on)" 1.13456 1.13766
"lsk cache vs cold (PoCL on)" 104.296 101.665
"no lsk cache vs cold (PoCL on)" 4.79401 4.76037
"build again vs cold (PoCL off)" 33199.2 25250.3
"cold + lsk store vs cold (PoCL off)" 0.595592 0.596146
"lsk cache vs cold (PoCL off)" 45.6626 42.6394
"no lsk cache vs cold (PoCL off)" 1.00601 1.0162
EOD
plot $data using 2:xtic(1) title 'best', '' using 3 title 'median', 1 with lines lc 'black' dt 2 notitle
