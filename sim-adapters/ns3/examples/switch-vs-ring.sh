#!/usr/bin/env bash
# The validation experiment of docs/validation.md: eight endpoints on one
# switch and on a ring, 400 Gbit/s links of 500 ns, ring all-reduce from
# 16 KiB to 16 MiB, priced by the fabric model and simulated by ns-3 (TCP
# CUBIC, ns-3's default, and NewReno). Writes one CSV with every row and a
# log-log plot of time against size.
#
#   sim-adapters/ns3/examples/switch-vs-ring.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR defaults to build/, OUT_DIR to a new temporary directory; the
# plot goes to OUT_DIR/switch_vs_ring.png. Needs gnuplot (gnuplot-nox).
set -euo pipefail

build=${1:-build}
out=${2:-$(mktemp -d)}
sim="$build/sim-adapters/trestle-sim"
mkdir -p "$out"

# Step by step (bulk-synchronous), as the figures of docs/validation.md were made.
common=(--topology switch:8 --topology ring:8 --collective allreduce --algorithm ring
        --sizes 16KiB,32KiB,64KiB,128KiB,256KiB,512KiB,1MiB,2MiB,4MiB,8MiB,16MiB
        --link-bw 400Gbps --link-latency 500ns --timing bulk-synchronous)

"$sim" sweep --backend fabric "${common[@]}" --csv "$out/fabric.csv"
"$sim" sweep --backend ns3 --tcp cubic "${common[@]}" --csv "$out/ns3-cubic.csv"
"$sim" sweep --backend ns3 --tcp newreno "${common[@]}" --csv "$out/ns3-newreno.csv"

# One file, the backend column naming the TCP variant for ns-3 rows.
{
  head -n 1 "$out/fabric.csv"
  tail -n +2 "$out/fabric.csv"
  tail -n +2 "$out/ns3-cubic.csv" | sed 's/^ns3,/ns3 cubic,/'
  tail -n +2 "$out/ns3-newreno.csv" | sed 's/^ns3,/ns3 newreno,/'
} > "$out/switch_vs_ring.csv"

# Time (us) against size for each backend and topology. The topology column
# is quoted (it has no commas here), so fields split on commas.
gnuplot <<GNUPLOT
set terminal pngcairo size 960,600 font ",11"
set output "$out/switch_vs_ring.png"
set datafile separator ","
set logscale xy
set xlabel "all-reduce size (bytes)"
set ylabel "time (us)"
set key top left
set grid
set title "Ring all-reduce, 8 endpoints, 400 Gbit/s links of 500 ns: fabric model vs ns-3"
file = "$out/switch_vs_ring.csv"
row(b, t) = sprintf("< awk -F, '\$1==\"%s\" && \$2==\"%s\"' %s", b, t, file)
plot row("fabric", "switch:8") using 5:(\$6/1000) with linespoints lw 2 pt 7 title "fabric, switch:8", \
     row("fabric", "ring:8") using 5:(\$6/1000) with linespoints lw 2 pt 5 title "fabric, ring:8", \
     row("ns3 cubic", "switch:8") using 5:(\$6/1000) with linespoints lw 2 pt 6 title "ns-3 TCP CUBIC, switch:8", \
     row("ns3 cubic", "ring:8") using 5:(\$6/1000) with linespoints lw 2 pt 4 title "ns-3 TCP CUBIC, ring:8", \
     row("ns3 newreno", "switch:8") using 5:(\$6/1000) with linespoints lw 1 dt 2 pt 6 title "ns-3 TCP NewReno, switch:8", \
     row("ns3 newreno", "ring:8") using 5:(\$6/1000) with linespoints lw 1 dt 2 pt 4 title "ns-3 TCP NewReno, ring:8"
GNUPLOT
echo "wrote $out/switch_vs_ring.csv and $out/switch_vs_ring.png"
