# Shared by the benchmarks (sourced): the tools they need, a work folder removed on exit with
# every server they started, the generated files, and nginx with one worker pinned to cpu0.
#
#   bench_start NAME TOOL...   checks the tools, makes $work; `pids+=($!)` for servers started
#   bench_files SIZES          generates the files (4K,1M) under $work/root, world-readable
#   bench_nginx NAME PORT EXTRA   starts nginx (1 worker, cpu0) over $work/root

bench_start() {
    local name=$1 tool
    shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null || {
            echo "$name: needs $tool (apt-get install nginx-light apache2-utils wrk)" >&2
            exit 2
        }
    done
    work=$(mktemp -d)
    chmod 755 "$work"
    pids=()
    trap bench_cleanup EXIT
}

bench_cleanup() {
    local f
    for f in "$work"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
    [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$work"
}

bench_files() {
    "$cli" sweep --no-db --sizes "$1" -n 1 --root "$work/root" >/dev/null 2>&1
    chmod -R a+rX "$work/root"
}

bench_nginx() {
    cat >"$work/$1.conf" <<CONF
worker_processes 1;
daemon off;
error_log $work/$1-error.log;
pid $work/$1.pid;
events { worker_connections 4096; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000; $3
       server { listen 127.0.0.1:$2; root $work/root; } }
CONF
    taskset -c 0 nginx -c "$work/$1.conf" &
    local _
    for _ in $(seq 50); do
        curl -s -o /dev/null "http://127.0.0.1:$2/" 2>/dev/null && break
        sleep 0.1
    done
}
