# Reads one topology's `trestle-sim validate --csv` (backends unaware, flow,
# ns3-cubic, ns3-dctcp) and prints its markdown table for docs/validation.md;
# appends the plots' rows to the files named by -v errors= (the flow model's
# ratio to ns-3 on the bandwidth-bound workloads) and -v victim= (the victim
# workloads' p50 and p99 per backend, in µs). -v topology= names the network,
# -v label= its short name in the plots.
function us(ns) { return sprintf("%.2f", ns / 1000) }
function pct(x) { return sprintf("%+.0f %%", 100 * (x - 1)) }
NR == 1 { next }
{
  # The topology, quoted where its spec holds commas: its commas are not fields.
  if (!sub(/^"[^"]*",/, "")) sub(/^[^,]*,/, "")
  w = $1; b = $2
  p50[w, b] = $5; p99[w, b] = $6
  if (!(w in seen)) { seen[w] = 1; order[++n] = w }
}
END {
  printf "**%s** (%s)\n\n", topology, label
  print "| workload | unaware p50 / p99 | flow p50 / p99 | ns-3 CUBIC p50 / p99 | ns-3 DCTCP p50 / p99 | flow vs DCTCP | flow vs CUBIC |"
  print "|---|---|---|---|---|---|---|"
  for (i = 1; i <= n; ++i) {
    w = order[i]
    printf "| %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s |\n", w,
        us(p50[w, "unaware"]), us(p99[w, "unaware"]), us(p50[w, "flow"]), us(p99[w, "flow"]),
        us(p50[w, "ns3-cubic"]), us(p99[w, "ns3-cubic"]),
        us(p50[w, "ns3-dctcp"]), us(p99[w, "ns3-dctcp"]),
        pct(p50[w, "flow"] / p50[w, "ns3-dctcp"]), pct(p99[w, "flow"] / p99[w, "ns3-dctcp"]),
        pct(p50[w, "flow"] / p50[w, "ns3-cubic"]), pct(p99[w, "flow"] / p99[w, "ns3-cubic"])
    if (w ~ /^victim/) {
      beside = w
      sub(/^victim:[^+]*/, "", beside)
      sub(/:.*/, "", beside)
      beside = beside == "" ? "alone" : "beside " substr(beside, 2)
      printf "\"%s %s\" %s %s %s %s %s %s %s %s\n", label, beside,
          us(p50[w, "unaware"]), us(p99[w, "unaware"]), us(p50[w, "flow"]), us(p99[w, "flow"]),
          us(p50[w, "ns3-cubic"]), us(p99[w, "ns3-cubic"]),
          us(p50[w, "ns3-dctcp"]), us(p99[w, "ns3-dctcp"]) >> victim
    } else {
      printf "\"%s %s\" %.4f %.4f %.4f %.4f\n", label, w,
          p50[w, "flow"] / p50[w, "ns3-dctcp"], p99[w, "flow"] / p99[w, "ns3-dctcp"],
          p50[w, "flow"] / p50[w, "ns3-cubic"], p99[w, "flow"] / p99[w, "ns3-cubic"] >> errors
    }
  }
  print ""
}
