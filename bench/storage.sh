#!/usr/bin/env bash
# make bench-storage: the files of /storage/v1 against nginx serving the same
# bytes from a directory, on loopback, in one run: wrk's requests/s and MB/s
# of a public 10 KiB and 1 MiB object (medians of BENCH_ROUNDS rounds, the
# servers taking turns, with each round's ratio to nginx), then the upload
# rate of a 256 MiB file on the directory backend and, when run under
# scripts/with-s3 (make bench-storage does), on the S3 backend, with the
# 10 KiB object's rate from S3 once the server has read it (its ratio to
# the directory backend's median above).
# A benchmark, not a test: figures depend on the machine and its load.
# When it cannot run, it says why and exits non-zero.
set -Eeuo pipefail
trap 'status=$?; echo "bench/storage.sh: line $LINENO: \`$BASH_COMMAND\` failed (exit $status)" >&2' ERR
fail() { echo "bench/storage.sh: $*" >&2; exit 1; }
cd "$(dirname "$0")/.."

DURATION=${BENCH_DURATION:-10s}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=${BENCH_THREADS:-2}
ROUNDS=${BENCH_ROUNDS:-3}
STUDIO_PORT=${BENCH_STUDIO_PORT:-18090}
NGINX_PORT=${BENCH_NGINX_PORT:-18091}
UPLOAD_MIB=${BENCH_UPLOAD_MIB:-256}

scripts/ensure-nginx
if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian)"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x bin/studio ] || fail "no bin/studio: run make build first"

work=$(mktemp -d)
studio_pid=""
cleanup() {
  trap - ERR
  [ -n "$studio_pid" ] && kill "$studio_pid" 2>/dev/null
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

chmod 755 "$work" # nginx's workers (www-data) read the files
mkdir -p "$work/files"
head -c 10240 /dev/urandom > "$work/files/small.bin"
head -c 1048576 /dev/urandom > "$work/files/large.bin"

# serve STORAGE_URL: studio on its port with a new store; sets token.
serve() {
  [ -n "$studio_pid" ] && { kill "$studio_pid"; wait "$studio_pid" 2>/dev/null || true; }
  rm -rf "$work/data"
  ./bin/studio staff add bench@studio.test --data "$work/data" >/dev/null
  STUDIO_STORAGE_URL=$1 ./bin/studio serve --addr 127.0.0.1:"$STUDIO_PORT" --data "$work/data" \
    --auth-rate-limit off --rate-limit off > "$work/studio.log" 2>&1 &
  studio_pid=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$STUDIO_PORT/healthz" >/dev/null && break; sleep 0.1; done
  curl -fs "http://127.0.0.1:$STUDIO_PORT/healthz" >/dev/null || fail "bin/studio did not start: $(tail -3 "$work/studio.log")"
  code=$(./bin/studio staff sign-in-code bench@studio.test --data "$work/data")
  token=$(curl -fs "http://127.0.0.1:$STUDIO_PORT/auth/v1/verify" -H 'Content-Type: application/json' \
    -d "{\"type\":\"email\",\"email\":\"bench@studio.test\",\"token\":\"$code\"}" | sed -E 's/.*"access_token":"([^"]*)".*/\1/')
  [ -n "$token" ] || fail "could not sign in"
  api POST /bucket -H 'Content-Type: application/json' -d '{"id":"bench","name":"bench","public":true}' >/dev/null
}
api() { # method path curl-args...: a staff call of /storage/v1
  local method=$1 path=$2; shift 2
  curl -fsS -X "$method" "http://127.0.0.1:$STUDIO_PORT/storage/v1$path" -H "Authorization: Bearer $token" "$@"
}
upload_rate() { # → MB/s of a UPLOAD_MIB MiB upload
  local start end
  start=$(date +%s.%N)
  head -c $((UPLOAD_MIB << 20)) /dev/zero | api POST /object/bench/upload.bin -H 'Content-Type: application/octet-stream' \
    -H 'Transfer-Encoding: chunked' --data-binary @- >/dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v m="$UPLOAD_MIB" 'BEGIN { printf "%.0f", m * 1.048576 / (e - s) }'
}

serve ""
for f in small.bin large.bin; do
  api POST "/object/bench/$f" -H 'Content-Type: application/octet-stream' --data-binary @"$work/files/$f" >/dev/null
done
disk_upload=$(upload_rate)

# nginx sends the header fields studio sends with an object (read from
# studio itself: the cache policy, the sandbox and the security headers),
# besides those every server makes of the file.
curl -fs -D - -o /dev/null "http://127.0.0.1:$STUDIO_PORT/storage/v1/object/public/bench/small.bin" | tr -d '\r' | sed 1d |
  awk -F': ' 'tolower($1) !~ /^(date|content-length|content-type|etag|last-modified|accept-ranges|server|connection|)$/ {
    gsub(/"/, "\\\"", $2); printf "add_header %s \"%s\" always;\n", $1, $2 }' > "$work/fields.conf"
cat > "$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 4096; }
http {
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
    location /storage/v1/object/public/bench/ {
      alias $work/files/;
      default_type application/octet-stream;
      etag on;
      include $work/fields.conf;
    }
  }
}
CONF
"$NGINX" -c "$work/nginx.conf" -e "$work/error.log"
for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$NGINX_PORT/storage/v1/object/public/bench/small.bin" && break; sleep 0.1; done
curl -fs -o /dev/null "http://127.0.0.1:$NGINX_PORT/storage/v1/object/public/bench/small.bin" || fail "nginx did not answer: $(cat "$work/error.log")"

. bench/wrk.sh
# measure SERVER PATH → req/s p99 CPU-µs/req MB/s
measure() {
  local pids=$studio_pid port=$STUDIO_PORT
  if [ "$1" = nginx ]; then
    pids=$(pgrep -P "$(cat "$work/nginx.pid")") port=$NGINX_PORT # the workers
  fi
  wrk_measure "$pids" "http://127.0.0.1:$port$2"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print a / b }'; }

echo "load before: $(uptime)"
table=$(printf '%-10s %-8s %9s %9s %8s %11s %13s %11s' object server "req/s" "MB/s" "p99 ms" "CPU µs/req" "req/s÷nginx" "p99÷nginx")
for f in small.bin large.bin; do
  path=/storage/v1/object/public/bench/$f
  declare -A rps=() mbs=() p99=() cpu=() rps_ratio=() p99_ratio=() last_rps=() last_p99=()
  for round in $(seq "$ROUNDS"); do
    order=(studio nginx); [ $((round % 2)) -eq 0 ] && order=(nginx studio)
    for server in "${order[@]}"; do
      read -r r p c m < <(measure "$server" "$path")
      rps[$server]+=" $r"; p99[$server]+=" $p"; cpu[$server]+=" $c"; mbs[$server]+=" $m"
      last_rps[$server]=$r; last_p99[$server]=$p
      echo "  $f round $round: $server $r/s $m MB/s p99 $p ms $c µs" >&2
    done
    for server in studio nginx; do # each round's ratio: both ran under about the same load
      rps_ratio[$server]+=" $(ratio "${last_rps[$server]}" "${last_rps[nginx]}")"
      p99_ratio[$server]+=" $(ratio "${last_p99[$server]}" "${last_p99[nginx]}")"
    done
  done
  label="10 KiB"; [ "$f" = large.bin ] && label="1 MiB"
  # shellcheck disable=SC2086 # the lists are words
  [ "$f" = small.bin ] && small_dir_rps=$(median ${rps[studio]})
  for server in studio nginx; do
    # shellcheck disable=SC2086 # the lists are words
    table+=$'\n'$(printf '%-10s %-8s %9.0f %9.1f %8.2f %11.1f %13.2f %11.2f' "$label" "$server" "$(median ${rps[$server]})" \
      "$(median ${mbs[$server]})" "$(median ${p99[$server]})" "$(median ${cpu[$server]})" "$(median ${rps_ratio[$server]})" "$(median ${p99_ratio[$server]})")
    label=""
  done
done

s3_upload="(not measured: run under scripts/with-s3, as make bench-storage does)"
s3_small=""
if [ -n "${STUDIO_TEST_S3_URL:-}" ]; then
  serve "$STUDIO_TEST_S3_URL"
  api POST /object/bench/small.bin -H 'Content-Type: application/octet-stream' --data-binary @"$work/files/small.bin" >/dev/null
  s3_upload="$(upload_rate) MB/s"
  # The 10 KiB object from the S3 backend, once this server has read it.
  curl -fs -o /dev/null "http://127.0.0.1:$STUDIO_PORT/storage/v1/object/public/bench/small.bin"
  s3_rps=""
  for round in $(seq "$ROUNDS"); do
    read -r r _ < <(measure studio /storage/v1/object/public/bench/small.bin)
    s3_rps+=" $r"
    echo "  small.bin round $round: studio on S3 $r/s" >&2
  done
  # shellcheck disable=SC2086 # the lists are words
  s3_small=$(printf '10 KiB from the S3 backend, once read: %.0f req/s, %.2f× the directory backend'"'"'s' \
    "$(median $s3_rps)" "$(ratio "$(median $s3_rps)" "$small_dir_rps")")
fi
echo "load after:  $(uptime)"
echo "public downloads, medians of $ROUNDS rounds (the ratios: medians of each round's ratio; wrk -t$THREADS -c$CONNECTIONS -d$DURATION, loopback, $(nproc) cores shared by wrk and the servers)"
echo "$table"
[ -n "$s3_small" ] && echo "$s3_small"
echo "upload of $UPLOAD_MIB MiB (one request, curl): directory backend $disk_upload MB/s; S3 backend (versitygw on loopback) $s3_upload"
