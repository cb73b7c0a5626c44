#!/usr/bin/env bash
# make bench-analytics: what counting costs and how much it takes
# (issue 32; figures in docs/decisions/0026).
#  1. The home page, requested with another site as referrer (so counting has
#     a page to note), from bin/studio counting and from bin/studio with
#     --analytics off, taking turns BENCH_ROUNDS times: medians of req/s and
#     p99, and the ratio (the target: within 5 %).
#  2. Views accepted: wrk sends /seen as shown pages do (a referrer on the
#     site, a browser's user agent, one visitor per connection and request
#     number) for BENCH_DURATION; then the store's own count is read with
#     `studio analytics summary`: views counted per second, and how many were
#     dropped (the target: 20,000/s and none dropped).
# A benchmark, not a test: figures depend on the machine and its load.
set -Eeuo pipefail
trap 'status=$?; echo "bench/analytics.sh: line $LINENO: \`$BASH_COMMAND\` failed (exit $status)" >&2' ERR
fail() { echo "bench/analytics.sh: $*" >&2; exit 1; }
cd "$(dirname "$0")/.."

DURATION=${BENCH_DURATION:-10s}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=${BENCH_THREADS:-2}
ROUNDS=${BENCH_ROUNDS:-3}
ON_PORT=${BENCH_STUDIO_PORT:-18090}
OFF_PORT=$((ON_PORT + 1))

if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian)"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
[ -x bin/studio ] || fail "no bin/studio: run make build first"
work=$(mktemp -d)
pids=()
cleanup() {
  trap - ERR
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

start() { # port data flags...: starts bin/studio
  local port=$1 data=$2; shift 2
  ./bin/studio serve --addr 127.0.0.1:"$port" --data "$data" "$@" > /dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && return; sleep 0.1; done
  fail "bin/studio did not answer on port $port"
}
start "$ON_PORT" "$work/on"
start "$OFF_PORT" "$work/off" --analytics off

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# wrk's requests/s and p99 (ms) of a run.
measure() { # url, wrk flags…
  local url=$1; shift
  wrk --latency -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "$@" "$url" | awk '
    /Requests\/sec/ { rps = $2 }
    / 99%/ { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } p99 = v }
    END { printf "%s %s\n", rps, p99 }'
}

echo "== the home page, referred by another site: counting on and off ($ROUNDS rounds of $DURATION, $CONNECTIONS connections)"
uptime
: > "$work/on.txt"; : > "$work/off.txt"
for _ in $(seq "$ROUNDS"); do
  measure "http://127.0.0.1:$ON_PORT/" -H "Accept-Encoding: br" -H "Referer: https://news.example/post" >> "$work/on.txt"
  measure "http://127.0.0.1:$OFF_PORT/" -H "Accept-Encoding: br" -H "Referer: https://news.example/post" >> "$work/off.txt"
done
on_rps=$(cut -d' ' -f1 "$work/on.txt" | median); off_rps=$(cut -d' ' -f1 "$work/off.txt" | median)
on_p99=$(cut -d' ' -f2 "$work/on.txt" | median); off_p99=$(cut -d' ' -f2 "$work/off.txt" | median)
printf "%-14s %12s %10s\n" "" "req/s" "p99 ms"
printf "%-14s %12.0f %10.2f\n" "counting on" "$on_rps" "$on_p99" "counting off" "$off_rps" "$off_p99"
awk -v a="$on_rps" -v b="$off_rps" 'BEGIN { printf "on ÷ off: %.3f (target ≥ 0.95)\n", a / b }'

echo
echo "== views accepted: /seen as shown pages send it ($DURATION, $CONNECTIONS connections)"
cat > "$work/seen.lua" <<'LUA'
-- Each request a visitor of its own (its user agent differs), on a page of the site.
local n = 0
request = function()
  n = n + 1
  local headers = {
    ["Referer"] = "http://127.0.0.1/studio",
    ["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0." .. (n % 50000) .. "." .. math.random(1000000) .. " Safari/537.36",
  }
  return wrk.format("GET", "/seen", headers)
end
LUA
sent=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$work/seen.lua" -H "Host: 127.0.0.1" "http://127.0.0.1:$ON_PORT" | awk '/requests in/ { print $1 }')
seconds=$(echo "$DURATION" | sed 's/s$//')
sleep 3 # the last flush
summary=$(./bin/studio analytics summary --data "$work/on" --since 1h --format json)
views=$(echo "$summary" | awk -F': ' '/^  "views":/ { gsub(/,/, "", $2); print $2 }')
dropped=$(echo "$summary" | awk -F': ' '/"dropped":/ { gsub(/[ ,}]/, "", $2); print $2 }')
echo "sent $sent /seen requests in $DURATION; the store counted $views views, $dropped dropped"
awk -v v="$views" -v s="$seconds" 'BEGIN { printf "views counted: %.0f a second (target ≥ 20,000, none dropped)\n", v / s }'
uptime
