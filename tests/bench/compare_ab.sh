#!/usr/bin/env bash
# Benchmark, not a test: never fails on a number. Serves the same generated files with nginx and
# `servelab-cli serve` (both pinned to cpu0) and loads each with ab and `servelab-cli load`
# (pinned to cpu1), ab -c 1 as in the seeds. Prints KiB/s and two ratios:
#   client ratio = servelab load / ab on the same server (the lab must agree with ab, or explain:
#                  ab reads 8 KiB per recv(), so `--read-buffer 8K` is shown beside the default)
#   server ratio = servelab serve / nginx under the same client
#
#   tests/bench/compare_ab.sh [BUILD_DIR] [SIZES...]     (default: build/release, 4K 256K 32M)
# Needs nginx and ab (apache2-utils); both are bound to 127.0.0.1 and stopped on exit.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/release}
shift || true
sizes=("${@:-4K}")
[ $# = 0 ] && sizes=(4K 256K 32M)
cli=$build/bin/servelab-cli
for tool in nginx ab taskset "$cli"; do
    command -v "$tool" >/dev/null || { echo "compare_ab: needs $tool (apt-get install nginx-light apache2-utils)" >&2; exit 2; }
done

work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null
    [ -n "${serve_pid:-}" ] && kill "$serve_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

"$cli" sweep --sizes "$(IFS=,; echo "${sizes[*]}")" -n 1 --root "$work/root" >/dev/null 2>&1
chmod -R a+rX "$work/root"
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $work/nginx-error.log;
pid $work/nginx.pid;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on;
       server { listen 127.0.0.1:18282; root $work/root; } }
CONF
taskset -c 0 nginx -c "$work/nginx.conf" &
taskset -c 0 "$cli" serve --root "$work/root" --port 18181 >/dev/null &
serve_pid=$!
sleep 0.5

rate() { awk '/Transfer rate/ { print $3 }'; }
# The median of three runs: one noisy run on this two-core machine says little.
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { printf "%.2f", x / y }'; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
echo "median of 3 runs each; ab -c 1 and servelab-cli load -c 1, no keep-alive"
printf '%-6s %-9s %14s %14s %8s %16s %8s\n' size server "ab KiB/s" "servelab KiB/s" client "servelab 8K read" client
declare -A abRate
for size in "${sizes[@]}"; do
    n=2000
    case $size in *M) n=100 ;; esac
    for server in servelab:18181 nginx:18282; do
        url=http://127.0.0.1:${server#*:}/$size.bin
        as=() ss=() s8s=()
        for _ in 1 2 3; do
            as+=("$(taskset -c 1 ab -q -n $n -c 1 "$url" 2>&1 | rate)")
            ss+=("$(taskset -c 1 "$cli" load -n $n -c 1 "$url" | rate)")
            s8s+=("$(taskset -c 1 "$cli" load --read-buffer 8K -n $n -c 1 "$url" | rate)")
        done
        a=$(median3 "${as[@]}")
        s=$(median3 "${ss[@]}")
        s8=$(median3 "${s8s[@]}")
        abRate[$size.${server%:*}]=$a
        printf '%-6s %-9s %14s %14s %8s %16s %8s\n' "$size" "${server%:*}" "$a" "$s" "$(ratio "$s" "$a")" "$s8" "$(ratio "$s8" "$a")"
    done
done
echo
printf '%-6s %s\n' size "server ratio (servelab serve / nginx, both under ab -c 1)"
for size in "${sizes[@]}"; do
    printf '%-6s %s\n' "$size" "$(ratio "${abRate[$size.servelab]}" "${abRate[$size.nginx]}")"
done
