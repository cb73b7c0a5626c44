#!/usr/bin/env bash
# make bench-startup: how long bin/studio takes from its start to answer
# /healthz and to answer /readyz 200 (its site ready to serve), medians of
# BENCH_ROUNDS runs each, for: the default site URL; the first start with
# --site-url https://studio.example and a CAPTCHA on every form (a new
# --data: its pages are rewritten and compressed); and a later start on
# that --data (they are read from site-cache/ there).
# A benchmark, not a test: figures depend on the machine and its load, which
# the script prints (uptime) before and after.
set -Eeuo pipefail
trap 'status=$?; echo "bench/startup.sh: line $LINENO: \`$BASH_COMMAND\` failed (exit $status)" >&2' ERR
fail() { echo "bench/startup.sh: $*" >&2; exit 1; }
cd "$(dirname "$0")/.."

ROUNDS=${BENCH_ROUNDS:-5}
PORT=${BENCH_STUDIO_PORT:-18080}
STUDIO=${BENCH_BINARY:-bin/studio} # another build to compare, e.g. the previous commit's
[ -x "$STUDIO" ] || fail "no $STUDIO: run make build first"
work=$(mktemp -d)
pid=""
cleanup() {
  trap - ERR
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

options=(--site-url https://studio.example
  --captcha-provider hcaptcha --captcha-secret 0x0000000000000000000000000000000000000000
  --captcha-site-key 10000000-ffff-ffff-ffff-000000000001 --captcha-forms)

ms() { echo $(( $(date +%s%N) / 1000000 )); }

# run DATA ARGS…: prints "HEALTHZ_MS READYZ_MS" of one start, then stops it.
run() {
  local data=$1 start healthz="" readyz=""
  shift
  start=$(ms)
  "$STUDIO" serve --addr 127.0.0.1:"$PORT" --data "$data" "$@" >"$work/log" 2>&1 &
  pid=$!
  for _ in $(seq 3000); do
    if [ -z "$healthz" ] && curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz"; then healthz=$(( $(ms) - start )); fi
    if [ -n "$healthz" ] && curl -fs -o /dev/null "http://127.0.0.1:$PORT/readyz"; then readyz=$(( $(ms) - start )); break; fi
    sleep 0.01
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  [ -n "$readyz" ] || fail "$STUDIO was not ready within 30 s on port $PORT (is the port taken?): $(tail -3 "$work/log")"
  echo "$healthz $readyz"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "load before: $(uptime)"
printf '%-44s %12s %12s\n' "start (medians of $ROUNDS runs)" "/healthz ms" "/readyz ms"
report() { # name file
  printf '%-44s %12s %12s\n' "$1" "$(cut -d' ' -f1 "$2" | median)" "$(cut -d' ' -f2 "$2" | median)"
}
for i in $(seq "$ROUNDS"); do
  run "$work/default-$i" >>"$work/default"
  run "$work/data-$i" "${options[@]}" >>"$work/first"
  run "$work/data-$i" "${options[@]}" >>"$work/later"
done
report "default site URL, new --data" "$work/default"
report "--site-url, --captcha-forms: first start" "$work/first"
report "--site-url, --captcha-forms: later start" "$work/later"
echo "load after: $(uptime)"
