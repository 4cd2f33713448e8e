# SPDX-License-Identifier: Apache-2.0
# Shared by the benchmarks (sourced): the tools they need, a work folder removed on exit with
# every server they started, the generated files, and real servers pinned to cpu0, each with one
# worker (process or thread), no access log and keep-alive with a very high request limit,
# serving $work/root on 127.0.0.1:PORT, its config and error log in $work/NAME.*.
#
#   bench_start NAME TOOL...   checks the tools, makes $work; `pids+=($!)` for servers started
#   bench_package TOOL         the Debian package that has TOOL (for messages)
#   bench_files SIZES          generates the files (4K,1M) under $work/root, world-readable
#   bench_nginx NAME PORT EXTRA [SENDFILE]   starts nginx (1 worker, cpu0), sendfile on (default)
#                              or off (then nginx's default output_buffers copy the file);
#                              BENCH_NGINX_LISTEN=http2 adds to its listen directive
#   bench_nginx_tls NAME PORT CERT KEY [SENDFILE]   nginx as above over https: TLS 1.2 and 1.3,
#                              OpenSSL's default ciphers and groups, session cache and tickets on
#   bench_lighttpd NAME PORT   starts lighttpd (1 process, cpu0)
#   bench_h2o NAME PORT        starts h2o (1 worker thread, cpu0)
#   bench_nghttpd NAME PORT    starts nghttpd (h2c only, 1 worker thread, cpu0): libnghttp2's
#                              own server, the peer that frames with the library ServeLab uses
#   bench_servelab NAME PORT MODE FLAGS...   starts `servelab-cli serve` ($cli, cpu0, no request
#                              limit) with FLAGS; its pid in $work/NAME.pid, output in NAME.out
#   bench_serving_pid NAME     the pid of the process that serves for NAME (nginx: the worker)
#   bench_wait_http PORT WHAT LOG [SCHEME]   waits (5 s at most) until 127.0.0.1:PORT answers
#                              (http, https unchecked, or h2c); else says so
# The starters return non-zero, having said why on stderr, when the server does not answer.

bench_start() {
    local name=$1 tool
    shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null && continue
        if [[ $tool == */servelab-cli ]]; then
            echo "$name: needs $tool: build it (cmake --preset release && cmake --build --preset release)" >&2
        else
            echo "$name: needs $tool (apt-get install $(bench_package "$tool"); the benchmarks' packages" \
                "are the set bench in packaging/packages.txt)" >&2
        fi
        exit 2
    done
    work=$(mktemp -d)
    chmod 755 "$work"
    pids=()
    trap bench_cleanup EXIT
}

bench_package() {
    case ${1##*/} in
    nginx) echo nginx-light ;;
    ab) echo apache2-utils ;;
    h2load) echo nghttp2-client ;;
    nghttpd) echo nghttp2-server ;;
    time) echo time ;;
    taskset) echo util-linux ;;
    timeout) echo coreutils ;;
    pgrep) echo procps ;;
    getconf) echo libc-bin ;;
    *) echo "${1##*/}" ;; # wrk, curl, lighttpd, h2o, python3: the package has the tool's name
    esac
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
    # $5, $6: a certificate and key make it https (bench_nginx_tls).
    # BENCH_NGINX_LISTEN: more parameters of the listen directive (http2).
    local listen="127.0.0.1:$2${BENCH_NGINX_LISTEN:+ $BENCH_NGINX_LISTEN}" tls="" scheme=http
    if [ -n "${5:-}" ]; then
        listen="$listen ssl"
        tls="ssl_certificate $5; ssl_certificate_key $6;"
        scheme=https
    fi
    [[ ${BENCH_NGINX_LISTEN:-} == *http2* && -z ${5:-} ]] && scheme=h2c # h2c only, no HTTP/1.1
    cat >"$work/$1.conf" <<CONF
worker_processes 1;
daemon off;
error_log $work/$1-error.log;
pid $work/$1.pid;
events { worker_connections 4096; }
http { access_log off; sendfile ${4:-on}; tcp_nopush on; keepalive_requests 1000000; $3
       server { listen $listen; $tls root $work/root; } }
CONF
    taskset -c 0 nginx -c "$work/$1.conf" &
    bench_wait_http "$2" "nginx $1" "$work/$1-error.log" "$scheme"
}

bench_nginx_tls() {
    bench_nginx "$1" "$2" "ssl_protocols TLSv1.2 TLSv1.3; ssl_session_cache shared:bench:10m;
       ssl_session_tickets on;" "${5:-off}" "$3" "$4"
}

bench_lighttpd() {
    # No server.max-worker: one process serves. No server.modules: no mod_accesslog, no access
    # log. The keep-alive limit is 16 bits in lighttpd (65538 wraps to 2): 65535 is its most.
    cat >"$work/$1.conf" <<CONF
server.document-root = "$work/root"
server.bind = "127.0.0.1"
server.port = $2
server.pid-file = "$work/$1.pid"
server.errorlog = "$work/$1-error.log"
server.network-backend = "sendfile"
server.max-keep-alive-requests = 65535
server.max-keep-alive-idle = 60
CONF
    taskset -c 0 lighttpd -D -f "$work/$1.conf" >"$work/$1.out" 2>&1 &
    pids+=($!)
    bench_wait_http "$2" "lighttpd $1" "$work/$1-error.log"
}

bench_h2o() {
    # One worker thread, no access-log directive (no access log). h2o has no per-connection
    # request limit for HTTP/1.1 keep-alive: the limit is unlimited.
    cat >"$work/$1.conf" <<CONF
num-threads: 1
error-log: $work/$1-error.log
listen:
  host: 127.0.0.1
  port: $2
hosts:
  default:
    paths:
      /:
        file.dir: $work/root
CONF
    taskset -c 0 h2o -c "$work/$1.conf" >"$work/$1.out" 2>&1 &
    # Run as root, h2o drops to nobody before it writes a pid-file, and nobody cannot write $work:
    # its pid is $! (taskset execs it), kept where bench_cleanup and bench_serving_pid look.
    echo $! >"$work/$1.pid"
    bench_wait_http "$2" "h2o $1" "$work/$1.out"
}

bench_servelab() {
    local name=$1 port=$2 mode=$3
    shift 3
    # Its output goes to the log through tee and a fifo that grep reads until "listening":
    # the wait ends on that line (30 s at most), with no polling. tee -p keeps writing the log
    # once grep has gone.
    mkfifo "$work/$name.ready"
    {
        taskset -c 0 "$cli" serve --root "$work/root" --port "$port" --mode "$mode" \
            --max-requests 0 "$@" 2>&1 &
        echo $! >"$work/$name.pid"
        wait
    } | tee -p "$work/$name.out" >"$work/$name.ready" &
    if timeout 30 grep -q -m1 '^listening' "$work/$name.ready"; then
        pids+=("$(cat "$work/$name.pid")")
        return 0
    fi
    pids+=("$(cat "$work/$name.pid" 2>/dev/null)")
    echo "servelab $name did not start: $(head -2 "$work/$name.out")" >&2
    return 1
}

bench_nghttpd() {
    # Prior knowledge only (--no-tls): it refuses HTTP/1.1, so the wait asks over h2c.
    taskset -c 0 nghttpd --no-tls --address 127.0.0.1 -n 1 -d "$work/root" "$2" >"$work/$1.out" 2>&1 &
    echo $! >"$work/$1.pid"
    bench_wait_http "$2" "nghttpd $1" "$work/$1.out" h2c
}

bench_serving_pid() {
    local master child
    master=$(cat "$work/$1.pid")
    # nginx serves from its worker, a child of the same name. h2o's only child is a perl helper
    # (it annotates backtraces) and lighttpd without max-worker has none: they serve themselves.
    child=$(pgrep -P "$master" -x "$(cat "/proc/$master/comm")" | head -1) || true
    echo "${child:-$master}"
}

bench_wait_http() { # PORT WHAT LOG [SCHEME]
    local _
    for _ in $(seq 50); do
        if [[ ${4:-} == h2c ]]; then
            curl -s --http2-prior-knowledge -o /dev/null "http://127.0.0.1:$1/" 2>/dev/null && return 0
        else
            curl -sk -o /dev/null "${4:-http}://127.0.0.1:$1/" 2>/dev/null && return 0
        fi
        sleep 0.1
    done
    echo "$2 did not answer on 127.0.0.1:$1 within 5 s (see $3)" >&2
    return 1
}
