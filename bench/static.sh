#!/usr/bin/env bash
# make bench (static part): wrk on loopback against bin/studio and, in the
# same run, against nginx serving the same built files with an equivalent
# configuration (precompressed gzip, the same cache headers, 404 page).
# Each target is measured BENCH_ROUNDS times, the servers taking turns
# (studio, nginx, studio, nginx, ...), and the medians are printed: requests/s,
# p99 latency and CPU time per request for each server, and the ratios to nginx.
# BENCH_BASELINE="path/to/a/studio ..." measures other builds in the same
# turns (e.g. the previous commit's), each named by its file name.
# A benchmark, not a test: figures depend on the machine and its load, which
# the script prints (uptime) before and after.
# When it cannot run, it says why and exits non-zero (make bench stops there).
set -Eeuo pipefail
trap 'status=$?; echo "bench/static.sh: line $LINENO: \`$BASH_COMMAND\` failed (exit $status)" >&2' ERR
fail() { echo "bench/static.sh: $*" >&2; exit 1; }
cd "$(dirname "$0")/.."

DURATION=${BENCH_DURATION:-10s}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=${BENCH_THREADS:-2}
STUDIO_PORT=${BENCH_STUDIO_PORT:-18080}
NGINX_PORT=${BENCH_NGINX_PORT:-18081}
ROUNDS=${BENCH_ROUNDS:-3}
BASELINE=${BENCH_BASELINE:-}
BASELINE_PORT=${BENCH_BASELINE_PORT:-18082} # and up, one per baseline
SITE=$PWD/web/build/client

scripts/ensure-nginx
if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian)"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x bin/studio ] && [ -d "$SITE" ] || fail "no bin/studio or $SITE: run make build first"
command -v wrk >/dev/null || fail "wrk is not installed"

# The hashed JavaScript asset to measure, whatever the build names it: the
# largest that the home page refers to (its islands' React DOM today).
asset=$( (grep -o '/assets/[^"]*\.js' "$SITE/index.html" || true) | sort -u |
  while read -r path; do echo "$(stat -c %s "$SITE$path") $path"; done | sort -n | tail -1 | cut -d' ' -f2)
[ -n "$asset" ] || fail "the home page ($SITE/index.html) refers to no JavaScript file in /assets/"
work=$(mktemp -d)
declare -A pid=() port=([studio]=$STUDIO_PORT [nginx]=$NGINX_PORT) # by server
cleanup() {
  trap - ERR # a server that already stopped is no error here
  for p in "${pid[@]}"; do kill "$p" 2>/dev/null; done
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

start_studio() { # name binary port data: starts it as pid[name]
  "$2" serve --addr 127.0.0.1:"$3" --data "$4" > /dev/null 2>&1 &
  pid[$1]=$!
  for _ in $(seq 50); do curl -fs "http://127.0.0.1:$3/healthz" >/dev/null && break; sleep 0.1; done
  curl -fs "http://127.0.0.1:$3/healthz" >/dev/null || fail "$2 did not answer on port $3 (is the port taken?)"
}
servers=(studio nginx)
start_studio studio ./bin/studio "$STUDIO_PORT" "$work/data"
for binary in $BASELINE; do
  name=$(basename "$binary")
  servers+=("$name")
  port[$name]=$((BASELINE_PORT + ${#servers[@]} - 3))
  start_studio "$name" "$binary" "${port[$name]}" "$work/data-$name"
done

# nginx sends the same header fields as studio, read from studio itself: the
# security headers of every response, and the page's own CSP (it admits the
# hashes of that page's inline scripts).
field() { # path name → the value studio sends
  curl -s -D - -o /dev/null "http://127.0.0.1:$STUDIO_PORT$1" | tr -d '\r' | awk -v n="$2" 'BEGIN { IGNORECASE = 1 } index(tolower($0), tolower(n) ": ") == 1 { sub(/^[^:]*: /, ""); print; exit }'
}
for name in X-Content-Type-Options X-Frame-Options Referrer-Policy Permissions-Policy Cross-Origin-Opener-Policy; do
  echo "add_header $name \"$(field /healthz $name)\" always;"
done > "$work/security.conf"
csp() { echo "add_header Content-Security-Policy \"$(field "$1" Content-Security-Policy)\" always;"; }

# The same files and caching as internal/site: immutable hashed assets,
# no-cache HTML with an ETag, gzip variants from the build, a real 404 page.
cat > "$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  # Both servers log every request, buffered (studio flushes its log every 250 ms).
  access_log $work/access.log combined buffer=64k flush=250ms;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path $work/body;
  proxy_temp_path $work/proxy;
  fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi;
  scgi_temp_path $work/scgi;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $SITE;
    gzip_static on;
    gzip_vary on;
    etag on;
    location /assets/ {
      add_header Cache-Control "public, max-age=31536000, immutable";
      include $work/security.conf;
      $(csp "$asset")
    }
    location = / {
      add_header Cache-Control "no-cache";
      include $work/security.conf;
      $(csp /)
      try_files /index.html =404;
    }
    location / {
      add_header Cache-Control "no-cache";
      include $work/security.conf;
      $(csp /)
      try_files \$uri \$uri/index.html =404;
    }
    location = /404/index.html {
      add_header Cache-Control "no-cache" always;
      include $work/security.conf;
      $(csp /no-such-page)
    }
    error_page 404 /404/index.html;
  }
}
CONF
"$NGINX" -c "$work/nginx.conf" -e "$work/error.log"
for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$NGINX_PORT/" && break; sleep 0.1; done
curl -fs -o /dev/null "http://127.0.0.1:$NGINX_PORT/" || fail "nginx did not answer on port $NGINX_PORT: $(cat "$work/error.log" 2>/dev/null)"

. bench/wrk.sh
# measure SERVER PATH → req/s p99 CPU-µs/req of the gzip answer
measure() {
  local pids r p c
  if [ "$1" = nginx ]; then
    pids=$(pgrep -P "$(cat "$work/nginx.pid")") # the workers
  else
    pids=${pid[$1]}
  fi
  read -r r p c _ < <(wrk_measure "$pids" "http://127.0.0.1:${port[$1]}$2" -H 'Accept-Encoding: gzip')
  echo "$r $p $c"
}

# The header fields of a response, with the values of the security headers;
# fields only one server sends by nature (Server, Last-Modified, ...) left out.
fields() { # port path
  curl -s -D - -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:$1$2" | tr -d '\r' | sed 1d |
    awk -F': ' 'tolower($1) ~ /^(date|server|last-modified|connection|accept-ranges|etag|content-length|)$/ { next }
      tolower($1) ~ /^(content-security-policy|permissions-policy|referrer-policy|x-|cross-origin|cache-control|vary|content-encoding)/ { print tolower($1) ": " $2; next }
      { print tolower($1) }' | sort
}

echo "load before: $(uptime)"
table=$(printf '%-16s %-16s %9s %8s %11s %13s %11s' target server "req/s" "p99 ms" "CPU µs/req" "req/s÷nginx" "p99÷nginx")
for target in "/" "$asset" "/no-such-page"; do
  # Check that both answer alike before measuring.
  s=$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' "http://127.0.0.1:$STUDIO_PORT$target" || true)
  n=$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' "http://127.0.0.1:$NGINX_PORT$target" || true)
  [ "$s" = "$n" ] || echo "warning: $target answers '$s' from studio but '$n' from nginx" >&2
  sh=$(fields "$STUDIO_PORT" "$target"); nh=$(fields "$NGINX_PORT" "$target")
  [ "$sh" = "$nh" ] || echo "warning: $target: header fields differ (< studio, > nginx): $(diff <(echo "$sh") <(echo "$nh") | grep '^[<>]' | tr '\n' ' ')" >&2
  declare -A rps=() p99=() cpu=() rps_ratio=() p99_ratio=() last_rps=() last_p99=()
  for round in $(seq "$ROUNDS"); do # the servers take turns, each round starting with the next
    line="  $target round $round:"
    turn=$(( (round - 1) % ${#servers[@]} ))
    for server in "${servers[@]:turn}" "${servers[@]:0:turn}"; do
      read -r r p c < <(measure "$server" "$target")
      rps[$server]+=" $r"; p99[$server]+=" $p"; cpu[$server]+=" $c"
      last_rps[$server]=$r; last_p99[$server]=$p
      line+=" $server $r/s $p ms $c µs;"
    done
    for server in "${servers[@]}"; do # each round's ratio: both ran under about the same load
      rps_ratio[$server]+=" $(awk -v a="${last_rps[$server]}" -v b="${last_rps[nginx]}" 'BEGIN { print a / b }')"
      p99_ratio[$server]+=" $(awk -v a="${last_p99[$server]}" -v b="${last_p99[nginx]}" 'BEGIN { print a / b }')"
    done
    echo "$line" >&2
  done
  label=$target; [ "$target" = "$asset" ] && label="hashed JS asset"; [ "$target" = "/" ] && label="/ (HTML, gzip)"; [ "$target" = "/no-such-page" ] && label="404 page"
  for server in "${servers[@]}"; do
    # shellcheck disable=SC2086 # the lists are words
    table+=$'\n'$(printf '%-16s %-16s %9.0f %8.2f %11.1f %13.2f %11.2f' "$label" "$server" "$(median ${rps[$server]})" \
      "$(median ${p99[$server]})" "$(median ${cpu[$server]})" "$(median ${rps_ratio[$server]})" "$(median ${p99_ratio[$server]})")
    label=""
  done
done
echo "load after:  $(uptime)"
echo "medians of $ROUNDS rounds (the ratios: medians of each round's ratio to nginx)"
echo "$table"
echo "(wrk -t$THREADS -c$CONNECTIONS -d$DURATION, loopback, $(nproc) cores shared by wrk and the servers; asset $asset)"
