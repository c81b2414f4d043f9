# Draws the regime map from the two sweep CSVs (see regime_map.sh): one panel
# per topology, time against size on log-log axes; colour = algorithm, solid
# = flow model, dashed = congestion-unaware.
set terminal pngcairo size 1500,560 font 'sans,10'
set output png
set datafile separator ','
set multiplot layout 1,3 title 'All-reduce on 1,024 endpoints: congestion-unaware (dashed) vs flow model (solid), minimal routing' noenhanced
set logscale xy
set xlabel 'all-reduce size'
set ylabel 'time (µs)'
set xtics ('16K' 16384, '64K' 65536, '256K' 262144, '1M' 1048576, '4M' 4194304, '16M' 16777216)
set grid xtics ytics lc rgb '#dddddd'
set key below horizontal maxrows 2 width -4 font ',9'
set xrange [12000:22000000]
# Column 2 is the topology (quoted when it has commas), 3 the algorithm.
rows(t, a) = sprintf('< grep ",%s,%s," ', t, a)
topologies = 'torus:8x8x16 fattree:k=16 slingshot-1k'
algorithms = 'ring halving-doubling direct'
colours = '#1b9e77 #d95f02 #7570b3'
do for [t in topologies] {
  set title t noenhanced
  plot for [i=1:3] rows(t, word(algorithms, i)).unaware using 5:($6/1000) \
         with linespoints dt 2 lw 1.5 pt 6 lc rgb word(colours, i) title word(algorithms, i).' (unaware)', \
       for [i=1:3] rows(t, word(algorithms, i)).flow using 5:($6/1000) \
         with linespoints lw 2 pt 7 lc rgb word(colours, i) title word(algorithms, i).' (flow)'
}
unset multiplot
