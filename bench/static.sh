#!/usr/bin/env bash
# make bench (static part): wrk on loopback against bin/studio and, in the
# same run, against nginx serving the same built files with an equivalent
# configuration (precompressed gzip, the same cache headers, 404 page).
# Prints requests/s and p99 latency for each target and the ratio studio/nginx.
# A benchmark, not a test: figures depend on the machine and its load.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${BENCH_DURATION:-10s}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=${BENCH_THREADS:-2}
STUDIO_PORT=${BENCH_STUDIO_PORT:-18080}
NGINX_PORT=${BENCH_NGINX_PORT:-18081}
SITE=$PWD/web/build/client

scripts/ensure-nginx
if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian)"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x bin/studio ] && [ -d "$SITE" ] || { echo "run make build first" >&2; exit 1; }

asset=$(grep -o '/assets/entry.client-[^"]*\.js' "$SITE/index.html" | head -1)
work=$(mktemp -d)
cleanup() { [ -n "${studio_pid:-}" ] && kill "$studio_pid" 2>/dev/null; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

./bin/studio serve --addr 127.0.0.1:$STUDIO_PORT --data "$work/data" > /dev/null 2>&1 &
studio_pid=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$STUDIO_PORT/healthz" >/dev/null && break; sleep 0.1; done

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

# wrk prints Requests/sec and, with --latency, the 99% percentile.
measure() { # port path
  local out rps p99
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H 'Accept-Encoding: gzip' "http://127.0.0.1:$1$2")
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  echo "$rps $p99"
}

# The header fields of a response, with the values of the security headers;
# fields only one server sends by nature (Server, Last-Modified, ...) left out.
fields() { # port path
  curl -s -D - -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:$1$2" | tr -d '\r' | sed 1d |
    awk -F': ' 'tolower($1) ~ /^(date|server|last-modified|connection|accept-ranges|etag|content-length|)$/ { next }
      tolower($1) ~ /^(content-security-policy|permissions-policy|referrer-policy|x-|cross-origin|cache-control|vary|content-encoding)/ { print tolower($1) ": " $2; next }
      { print tolower($1) }' | sort
}

printf '%-28s %14s %10s %14s %10s %8s\n' "target" "studio req/s" "p99" "nginx req/s" "p99" "ratio"
for target in "/" "$asset" "/no-such-page"; do
  # Check that both answer alike before measuring.
  s=$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' "http://127.0.0.1:$STUDIO_PORT$target" || true)
  n=$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' "http://127.0.0.1:$NGINX_PORT$target" || true)
  [ "$s" = "$n" ] || echo "warning: $target answers '$s' from studio but '$n' from nginx" >&2
  sh=$(fields "$STUDIO_PORT" "$target"); nh=$(fields "$NGINX_PORT" "$target")
  [ "$sh" = "$nh" ] || echo "warning: $target: header fields differ (< studio, > nginx): $(diff <(echo "$sh") <(echo "$nh") | grep '^[<>]' | tr '\n' ' ')" >&2
  read -r srps sp99 < <(measure "$STUDIO_PORT" "$target")
  read -r nrps np99 < <(measure "$NGINX_PORT" "$target")
  ratio=$(awk -v a="$srps" -v b="$nrps" 'BEGIN { printf "%.2f", a / b }')
  label=$target; [ "$target" = "$asset" ] && label="hashed JS asset"; [ "$target" = "/" ] && label="/ (HTML, gzip)"; [ "$target" = "/no-such-page" ] && label="404 page"
  printf '%-28s %14s %10s %14s %10s %8s\n' "$label" "$srps" "$sp99" "$nrps" "$np99" "$ratio"
done
echo "(wrk -t$THREADS -c$CONNECTIONS -d$DURATION, loopback, $(nproc) cores shared by wrk and the server)"
