# The plots of docs/validation.md "At scale", from at_scale.sh's data files:
#   errors  rows "LABEL WORKLOAD" flow÷DCTCP p50, p99, flow÷CUBIC p50, p99
#   victim  rows "LABEL WORKLOAD" p50 and p99 (µs) of unaware, flow, CUBIC, DCTCP
#   out     the directory the PNGs go to
set terminal pngcairo size 1400,560 font ",10"
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -35 scale 0 nomirror
set grid ytics
set key top left horizontal
set bmargin 10
set rmargin 12

set output out."/validation_at_scale_errors.png"
set title "Flow model ÷ ns-3 on the bandwidth-bound workloads (1 = exact; dashed ±10 %, dotted ±25 %)"
set ylabel "message time, flow model ÷ ns-3"
set yrange [0.4:1.6]
set arrow 1 from graph 0, first 0.9 to graph 1, first 0.9 nohead dt 2 lc rgb "#444444"
set arrow 2 from graph 0, first 1.1 to graph 1, first 1.1 nohead dt 2 lc rgb "#444444"
set arrow 3 from graph 0, first 0.75 to graph 1, first 0.75 nohead dt 3 lc rgb "#888888"
set arrow 4 from graph 0, first 1.25 to graph 1, first 1.25 nohead dt 3 lc rgb "#888888"
plot errors using 2:xtic(1) title "p50 vs DCTCP" lc rgb "#1f77b4", \
     '' using 3 title "p99 vs DCTCP" lc rgb "#aec7e8", \
     '' using 4 title "p50 vs CUBIC" lc rgb "#d62728", \
     '' using 5 title "p99 vs CUBIC" lc rgb "#ff9896"
unset arrow

set output out."/validation_at_scale_victim.png"
set terminal pngcairo size 1400,760 font ",10"
set multiplot layout 2,1
set logscale y
set yrange [0.1:20]
set ylabel "µs"
set title "An 8-byte victim, alone and beside an aggressor: median message time"
plot victim using 2:xtic(1) title "unaware" lc rgb "#7f7f7f", \
     '' using 4 title "flow" lc rgb "#1f77b4", \
     '' using 6 title "ns-3 CUBIC" lc rgb "#d62728", \
     '' using 8 title "ns-3 DCTCP" lc rgb "#2ca02c"
set title "99th percentile"
plot victim using 3:xtic(1) title "unaware" lc rgb "#7f7f7f", \
     '' using 5 title "flow" lc rgb "#1f77b4", \
     '' using 7 title "ns-3 CUBIC" lc rgb "#d62728", \
     '' using 9 title "ns-3 DCTCP" lc rgb "#2ca02c"
unset multiplot
