# Sourced by bench/static.sh and bench/storage.sh: wrk's figures for one
# run, and the medians of several.

# median NUMBERS... → their median
median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# cpu_ticks PIDS... → the user+system clock ticks of those processes so far
cpu_ticks() {
  local p
  for p in "$@"; do cut -d' ' -f14,15 "/proc/$p/stat"; done | awk '{ t += $1 + $2 } END { print t + 0 }'
}

# wrk_measure "PIDS" URL [WRK-ARGS...] → req/s, p99 in ms, CPU µs per
# request of the server's processes PIDS (less sensitive than req/s to what
# else the machine runs), MB/s; wrk with THREADS, CONNECTIONS, DURATION.
wrk_measure() {
  local pids=$1 url=$2 out before after requests
  shift 2
  # shellcheck disable=SC2086 # the pids are words
  before=$(cpu_ticks $pids)
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@" "$url")
  # shellcheck disable=SC2086
  after=$(cpu_ticks $pids)
  requests=$(awk '/ requests in / {print $1}' <<<"$out")
  awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$requests" '
    /^Requests\/sec:/ { r = $2 }
    $1 == "99%" { v = $2 + 0; u = $2; sub(/^[0-9.]+/, "", u); p = v * (u == "us" ? 0.001 : u == "s" ? 1000 : u == "m" ? 60000 : 1) }
    /^Transfer\/sec:/ { v = $2 + 0; u = $2; sub(/^[0-9.]+/, "", u)
      m = (u == "GB" ? v * 1024 : u == "KB" ? v / 1024 : u == "B" ? v / 1048576 : v) * 1.048576 }
    END { printf "%s %.2f %.1f %.1f\n", r, p, t / hz * 1e6 / n, m }' <<<"$out"
}
