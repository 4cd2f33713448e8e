#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark, not a test: never fails on a number. In one command, ServeLab's built-in modes beside
# real servers (nginx, lighttpd, h2o), every server pinned to cpu0 and every client to cpu1:
#   1. 4 KiB, keep-alive, wrk -t1 -c64: req/s, and the SERVER's CPU time per request (utime +
#      stime of the serving process, all its threads, from /proc/PID/stat, over the wrk run,
#      divided by the requests wrk reports). nginx with sendfile on and off, each with and without
#      open_file_cache; lighttpd; h2o; each of MODES with and without --open-file-cache 1000;
#      then, in one more run apart, the server's system calls per response (perf stat)
#   2. 1 MiB, keep-alive, wrk -t1 -c8: MiB/s and server CPU per MiB, the caching variants of the
#      same targets; the sendfile ones also under servelab-cli load --model duration -c 8
#   3. the seeds' sweep: ab -c 1 without keep-alive over 4K..32M, nginx (sendfile on) against
#      epoll+sendfile, then the same with ServeLab's client read as ab reads (servelab-cli load
#      --http1.0 --ab-reads), and ServeLab's client against ab on the same server
#   4. the clients, on nginx (sendfile on, cache) and epoll+sendfile (cache), 4 KiB -c64 and
#      1 MiB -c8: wrk against servelab-cli load --model duration (and h2load --h1 when
#      installed), req/s and the CLIENT's CPU time per request (GNU time), each ratio the
#      median of the runs' ratios to the wrk run just before (the drift cancels); then servelab-cli load --model rate at 50 % and
#      90 % of epoll+sendfile's 4 KiB capacity measured in 1: achieved against offered
# and a Goals section: each ratio, its goal, met / NOT met. Exit 0 once printed; 2 when a
# required tool is missing (lighttpd, h2o and h2load are optional: skipped when not installed).
#
#   tests/bench/compare_peers.sh [BUILD_DIR] [SECONDS] [RUNS]   (default: build/release, 3, 3)
#
# SECONDS and RUNS may also come from the environment (SECONDS=1 RUNS=1 tests/bench/...).
# MODES="epoll+sendfile epoll+copy" limits the built-in modes (default: epoll+sendfile
# epoll+copy epoll+mmap uring+sendfile poller+sendfile, those `servelab-cli modes` lists);
# epoll+sendfile is always measured, as 3 and 4 use it. SECTIONS="3" (or "1 4", ...) runs only
# those sections (default: 1 2 3 4); the rate part of 4 needs 1's capacity. Each figure is the median of RUNS runs
# of about SECONDS each (the sweep's: SECONDS/3 for each client on each server, so that a size
# takes about SECONDS a run), the targets interleaved within each run so that the machine's drift
# hits them all alike. With the defaults and every mode available: about 7 minutes.
set -euo pipefail

# Bash keeps SECONDS as its own clock; one given in the environment shows as exported.
env_seconds=
flags=$(declare -p SECONDS)
flags=${flags#declare -}
[[ ${flags%% *} == *x* ]] && env_seconds=$SECONDS
SECONDS=0

src=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${1:-}" ]; then
    build=$1
elif [ -d "$src/build/release" ]; then
    build=$src/build/release
else
    build=$src/build/dev
    echo "warning: no build/release, using build/dev: figures from a debug build are not meaningful" >&2
fi
grep -qs '^CMAKE_BUILD_TYPE:STRING=Debug' "$build/CMakeCache.txt" &&
    echo "warning: $build is a debug build: its figures are not meaningful" >&2
seconds=${2:-${env_seconds:-3}}
runs=${3:-${RUNS:-3}}
[[ $seconds =~ ^[1-9][0-9]*$ && $runs =~ ^[1-9][0-9]*$ ]] || {
    echo "compare_peers: SECONDS and RUNS are whole numbers from 1, not '$seconds' '$runs'" >&2
    exit 2
}
sections=${SECTIONS:-1 2 3 4}
[[ $sections =~ ^[1-4]( [1-4])*$ ]] || {
    echo "compare_peers: SECTIONS is a list of 1 to 4 separated by spaces (\"1 2 3 4\"), not '$sections'" >&2
    exit 2
}
want() { [[ " $sections " == *" $1 "* ]]; }
cli=$build/bin/servelab-cli
. "$src/tests/bench/benchlib.sh"
bench_start compare_peers nginx wrk ab curl taskset timeout pgrep getconf python3 /usr/bin/time "$cli"
taskset -c 1 true 2>/dev/null || { echo "compare_peers: needs two CPUs (servers on cpu0, clients on cpu1)" >&2; exit 2; }
have() { command -v "$1" >/dev/null; }
clk_tck=$(getconf CLK_TCK)
# A compile beside the benchmark takes cpu0 and cpu1 from both sides: say so, do not wait.
if pgrep -x ninja >/dev/null || pgrep -x cc1plus >/dev/null; then
    echo "warning: a compile is running (ninja/cc1plus): the figures will be disturbed" >&2
fi

# ---- the targets -----------------------------------------------------------------------------
# A target is a name, a base URL and the pid whose CPU time is the server's. Names: built-in
# modes as `servelab-cli modes` writes them, "/cache" with --open-file-cache 1000 (nginx:
# open_file_cache); nginx/sendfile-on, nginx/sendfile-off.
ofc="open_file_cache max=1000 inactive=20s; open_file_cache_valid 1s;"
available=$("$cli" modes 2>/dev/null)
modes=()
skipped=()
for mode in ${MODES:-epoll+sendfile epoll+copy epoll+mmap uring+sendfile poller+sendfile}; do
    if grep -qx "$mode" <<<"$available"; then modes+=("$mode"); else skipped+=("$mode: skipped (not available here)"); fi
done
grep -qx epoll+sendfile <<<"$available" || { echo "compare_peers: this build cannot run epoll+sendfile" >&2; exit 2; }
[[ " ${modes[*]} " == *" epoll+sendfile "* ]] || modes=(epoll+sendfile "${modes[@]}")
# The ceiling of section 1: bare_server (tests/bench/bare_server.cpp, built with the tests) answers
# every request with 4 KiB from memory, the least a server can do per request.
bare=$build/bin/bench/bare_server
[ -x "$bare" ] || { bare=; skipped+=("bare ceiling: skipped (no $build/bin/bench/bare_server: build the tests)"); }
peers=(nginx)
for peer in lighttpd h2o; do
    if have $peer; then peers+=($peer); else skipped+=("$peer: skipped (not installed; apt-get install $peer)"); fi
done
clients=(wrk servelab)
if have h2load; then clients+=(h2load); else skipped+=("h2load: skipped (not installed; apt-get install nghttp2-client)"); fi

sizes=(4K 64K 256K 1M 2M 32M)
# The estimate: sections 1 and 2 (one wrk run per target and run), the sweep (4 runs of SECONDS/3
# per size and run, plus a short calibration), the clients (2 servers) and the two rates.
n1=$((4 + ${#peers[@]} - 1 + 2 * ${#modes[@]}))
[ -n "$bare" ] && n1=$((n1 + 1))
n2=$((2 + ${#peers[@]} - 1 + ${#modes[@]}))
want 1 || n1=0
want 2 || n2=0
n3=${#sizes[@]}
want 3 || n3=0
n4=$((4 * ${#clients[@]} + 2))
want 4 || n4=0
estimate=$((runs * seconds * (n1 + n2 + n4) + seconds * n1 + n3 * (4 * runs * seconds / 3 + 1) + 10))
estimate=$((estimate + estimate / 10)) # process starts, parsing, the gaps between runs

echo "compare_peers: kernel $(uname -r), $(nproc) CPUs; servers on cpu0, clients on cpu1"
echo "  servelab-cli  $("$cli" --version | head -1 | sed 's/^servelab-cli //') ($build)"
echo "  nginx         $(nginx -v 2>&1 | sed 's/^nginx version: //')"
have lighttpd && echo "  lighttpd      $(lighttpd -v 2>&1 | head -1 | cut -d' ' -f1)"
have h2o && echo "  h2o           $(h2o --version 2>&1 | head -1 | sed 's/^h2o version //')"
echo "  wrk           $(wrk -v 2>&1 | head -1 | cut -d' ' -f2)"
echo "  ab            $(ab -V 2>&1 | head -1 | sed 's/^This is ApacheBench, //')"
have h2load && echo "  h2load        $(h2load --version 2>&1 | head -1)"
echo "  GNU time      $(dpkg-query -W -f='${Version}' time 2>/dev/null || echo '?')"
echo "SECONDS=$seconds RUNS=$runs SECTIONS=\"$sections\", modes: ${modes[*]}"
for line in "${skipped[@]}"; do echo "  $line"; done
echo "estimate: about $((estimate / 60)) min $((estimate % 60)) s"

declare -A url spid
targets1=() # section 1: every target
targets2=() # section 2: the caching ones
caching_peers=()
add_target() { # name port pid section2?
    url[$1]=http://127.0.0.1:$2
    spid[$1]=$3
    targets1+=("$1")
    if [ "$4" = yes ]; then targets2+=("$1"); fi
}

bench_files "$(IFS=,; echo "${sizes[*]}")"
port=19480
for sf in on off; do
    bench_nginx "nginx-$sf" $port "" $sf
    add_target "nginx/sendfile-$sf" $port "$(bench_serving_pid "nginx-$sf")" no
    bench_nginx "nginx-$sf-cache" $((port + 1)) "$ofc" $sf
    add_target "nginx/sendfile-$sf/cache" $((port + 1)) "$(bench_serving_pid "nginx-$sf-cache")" yes
    caching_peers+=("nginx/sendfile-$sf/cache")
    port=$((port + 2))
done
# lighttpd and h2o keep what they have opened or stat()ed: they count as caching peers.
for peer in "${peers[@]:1}"; do
    if "bench_$peer" "$peer" $port; then
        add_target "$peer" $port "$(bench_serving_pid "$peer")" yes
        caching_peers+=("$peer")
    else
        echo "  $peer: skipped (did not start)"
    fi
    port=$((port + 1))
done
if [ -n "$bare" ] && want 1; then
    taskset -c 0 "$bare" 19499 4096 >"$work/bare.log" 2>&1 &
    pids+=($!)
    if bench_wait_http 19499 bare_server "$work/bare.log"; then
        add_target bare 19499 "${pids[-1]}" no
    else
        bare=
    fi
fi
builtin_plain=()
builtin_cache=()
port=19500
for mode in "${modes[@]}"; do
    # The blocking model gets a thread per wrk connection, as in compare_wrk.sh.
    threads=1
    [[ $mode == blocking+* ]] && threads=64
    for cache in 0 1000; do
        name=$mode
        [ $cache = 0 ] || name=$mode/cache
        taskset -c 0 "$cli" serve --root "$work/root" --host 127.0.0.1 --port $port --mode "$mode" \
            --max-requests 0 --threads $threads --open-file-cache $cache >"$work/serve-$port.log" 2>&1 &
        pid=$!
        pids+=($pid)
        if bench_wait_http $port "$name" "$work/serve-$port.log"; then
            if [ $cache = 0 ]; then add_target "$name" $port $pid no; else add_target "$name" $port $pid yes; fi
            if [ $cache = 0 ]; then builtin_plain+=("$name"); else builtin_cache+=("$name"); fi
        else
            echo "  $name: skipped (did not start)"
        fi
        port=$((port + 1))
    done
done

# ---- helpers ---------------------------------------------------------------------------------
declare -A vals  # "target|figure" -> the runs' values, space-separated
declare -A errs  # target, or target and size -> a note that the client saw errors
goals=()         # "label|ratio|le or ge or within|bound"
goal() { goals+=("$1|$2|$3|$4"); }
progress() { printf '  [%4ds] %s\n' "$SECONDS" "$*" >&2; }
# shellcheck disable=SC2086 # the runs' values, split on purpose
median() { printf '%s\n' $1 | sort -g | awk 'NF && $1 != "-" { v[++n] = $1 } END { print n ? v[int((n + 1) / 2)] : "-" }'; }
fig() { median "${vals[$1|$2]:-}"; } # target figure
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.3f", a / b }'; }
# The target among those given with the least (min) or most (max) of a figure: "value target".
best() { # min|max figure targets...
    local how=$1 f=$2 t
    shift 2
    for t in "$@"; do echo "$(fig "$t" "$f") $t"; done | awk -v how="$how" '$1 != "-" {
        if (!n++ || (how == "min" ? $1 < v : $1 > v)) { v = $1; t = $2 } } END { print n ? v " " t : "- -" }'
}
# utime + stime of a process, all its threads, in clock ticks ("-" once it is gone). Field 2
# (the command) may hold spaces: count from the ')' that ends it; field 14 is then the 12th.
cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo -; }
# Bounds any client: a server that stops answering costs SECONDS + 30 s, not the whole run.
bounded() { timeout -k 5 $((seconds * 4 + 30)) taskset -c 1 "$@"; }

# One wrk run: "req/s MiB/s server-µs-per-request errors" ("-" for what could not be measured).
wrk_run() { # target path connections
    local before after
    before=$(cpu_ticks "${spid[$1]}")
    bounded wrk -t1 -c"$3" -d"${seconds}s" "${url[$1]}$2" >"$work/wrk.out" 2>&1 || true
    after=$(cpu_ticks "${spid[$1]}")
    awk -v b="$before" -v a="$after" -v hz="$clk_tck" '
        /Requests\/sec:/ { rps = $2 }
        /Transfer\/sec:/ { v = $2; u = v; sub(/^[0-9.]+/, "", u)
            f["B"] = 1 / 1048576; f["KB"] = 1 / 1024; f["MB"] = 1; f["GB"] = 1024; f["TB"] = 1048576
            mib = (v + 0) * f[u] }
        / requests in / { n = $1 }
        /Socket errors|Non-2xx/ { err = 1 }
        END { cpu = (n > 0 && b != "-" && a != "-") ? sprintf("%.3f", (a - b) / hz * 1e6 / n) : "-"
              printf "%s %s %s %d\n", rps == "" ? "-" : rps, mib == "" ? "-" : sprintf("%.1f", mib), cpu, err }' \
        "$work/wrk.out"
}
# Fields of servelab-cli load --json (FILE), numbers rounded to 2 decimals; on a failed run, a
# dash each, and the client's own words (ERR) on stderr.
json() { # file err key...
    local file=$1 err=$2
    shift 2
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(*(round(d[k], 2) if isinstance(d.get(k), float) else d.get(k, "-") for k in sys.argv[2:]))' \
        "$file" "$@" 2>/dev/null && return 0
    echo "  servelab-cli load gave no report: $(head -c 300 "$err" | tr '\n' ' ')" >&2
    printf -- '- %.0s' "$@"
    echo
}

# ---- 1. 4 KiB, keep-alive: req/s and server CPU per request -----------------------------------
if want 1; then
    for run in $(seq "$runs"); do
        progress "1. 4 KiB wrk -c64, run $run/$runs"
        for t in "${targets1[@]}"; do
            read -r rps _ cpu err < <(wrk_run "$t" /4K.bin 64)
            vals[$t|rps]+="$rps "
            vals[$t|cpu]+="$cpu "
            [ "$err" = 0 ] || errs[$t]=" (wrk saw errors)"
        done
    done
    echo
    echo "== 1. 4 KiB keep-alive, wrk -t1 -c64, median of $runs x ${seconds}s"
    printf '%-28s %12s %20s\n' target req/s "server CPU us/req"
    for t in "${targets1[@]}"; do
        printf '%-28s %12s %20s%s\n' "$t" "$(fig "$t" rps)" "$(fig "$t" cpu)" "${errs[$t]:-}"
    done
    read -r peer_cpu peer_cpu_t < <(best min cpu "${caching_peers[@]}")
    read -r peer_rps peer_rps_t < <(best max rps "${caching_peers[@]}")
    read -r nginx_cpu nginx_cpu_t < <(best min cpu nginx/sendfile-on nginx/sendfile-off)
    read -r nginx_rps nginx_rps_t < <(best max rps nginx/sendfile-on nginx/sendfile-off)
    echo
    echo "ratios: /cache against the best caching peer ($peer_cpu_t for CPU, $peer_rps_t for req/s);"
    echo "        without cache against the best nginx without open_file_cache ($nginx_cpu_t, $nginx_rps_t)"
    printf '%-28s %12s %20s\n' target req/s "server CPU us/req"
    for t in "${builtin_cache[@]}" "${builtin_plain[@]}"; do
        if [[ $t == */cache ]]; then r=$peer_rps c=$peer_cpu; else r=$nginx_rps c=$nginx_cpu; fi
        printf '%-28s %12s %20s\n' "$t" "$(ratio "$(fig "$t" rps)" "$r")" "$(ratio "$(fig "$t" cpu)" "$c")"
    done
    # System calls per response: one more wrk run per target, apart from the timed ones (the
    # tracepoint, once registered, sends every thread's system calls on the system through the
    # kernel's slow path, and would slow the timed runs of every target alike).
    if have perf; then
        progress "1. system calls per response (perf stat -e raw_syscalls:sys_enter)"
        for t in "${targets1[@]}"; do
            # Counted in 100 ms intervals: the first interval's line says perf is attached.
            : >"$work/perf.out"
            perf stat -I 100 -e raw_syscalls:sys_enter -x, -p "${spid[$t]}" -o "$work/perf.out" &
            perf_pid=$!
            timeout 5 tail -F "$work/perf.out" 2>/dev/null | grep -q -m1 raw_syscalls || true
            bounded wrk -t1 -c64 -d"${seconds}s" "${url[$t]}/4K.bin" >"$work/wrk.out" 2>&1 || true
            kill -INT $perf_pid 2>/dev/null
            wait $perf_pid 2>/dev/null || true
            n=$(awk '/ requests in / { print $1 }' "$work/wrk.out")
            calls=$(awk -F, '/raw_syscalls:sys_enter/ && $2 ~ /^[0-9]+$/ { c += $2; seen = 1 }
                END { if (seen) print c }' "$work/perf.out")
            vals[$t|calls]=$(awk -v c="${calls:--}" -v n="${n:-0}" 'BEGIN { if (c == "-" || c ~ /not/ || n == 0) print "-"; else printf "%.2f", c / n }')
        done
        echo
        echo "system calls per response (the server's, 4 KiB, one run of ${seconds}s each, counted apart from the timed runs)"
        for t in "${targets1[@]}"; do printf '%-28s %12s\n' "$t" "$(fig "$t" calls)"; done
        read -r own_calls own_calls_t < <(best min calls "${builtin_cache[@]}")
        read -r peer_calls peer_calls_t < <(best min calls "${caching_peers[@]}")
        goal "1. syscalls/response best built-in+cache ($own_calls_t) / fewest of a caching peer ($peer_calls_t)" "$(ratio "$own_calls" "$peer_calls")" le 1.0
    else
        echo "  system calls per response: skipped (no perf; apt-get install linux-perf)"
    fi
    read -r own_cpu own_cpu_t < <(best min cpu "${builtin_cache[@]}")
    read -r own_rps own_rps_t < <(best max rps "${builtin_cache[@]}")
    read -r plain_cpu plain_cpu_t < <(best min cpu "${builtin_plain[@]}")
    goal "1. CPU/req best built-in+cache ($own_cpu_t) / best caching peer ($peer_cpu_t)" "$(ratio "$own_cpu" "$peer_cpu")" le 0.85
    goal "1. req/s best built-in+cache ($own_rps_t) / best caching peer ($peer_rps_t)" "$(ratio "$own_rps" "$peer_rps")" info -
    goal "1. CPU/req best built-in, no cache ($plain_cpu_t) / best nginx, no cache ($nginx_cpu_t)" "$(ratio "$plain_cpu" "$nginx_cpu")" le 1.0
    if [ -n "$bare" ]; then
        goal "1. req/s best built-in+cache ($own_rps_t) / bare ceiling (4 KiB from memory)" "$(ratio "$own_rps" "$(fig bare rps)")" ge 0.97
    fi
fi

# ---- 2. 1 MiB, keep-alive: MiB/s ---------------------------------------------------------------
if want 2; then
    # wrk reads 8 KiB at a time, and at 1 MiB its core is the limit (100 % busy while the server's
    # idles 20-30 %): what it measures is then partly its own copying. So 2 also gives the server's
    # CPU per MiB, and loads the sendfile targets with servelab-cli load --model duration too, whose
    # 256 KiB reads leave the client core headroom.
    own_1m_run() { # target: "MiB/s server-µs-per-MiB"
        local before after
        before=$(cpu_ticks "${spid[$1]}")
        bounded "$cli" load --model duration -d "$seconds" -c 8 --threads 1 --json "${url[$1]}/1M.bin" \
            >"$work/own.json" 2>"$work/own.err" || true
        after=$(cpu_ticks "${spid[$1]}")
        read -r kib n < <(json "$work/own.json" "$work/own.err" kib_per_s completed)
        awk -v k="$kib" -v n="$n" -v b="$before" -v a="$after" -v hz="$clk_tck" 'BEGIN {
            printf "%s %s\n", k == "-" ? "-" : sprintf("%.1f", k / 1024),
                (n != "-" && n > 0 && b != "-" && a != "-") ? sprintf("%.3f", (a - b) / hz * 1e6 / n) : "-" }'
    }
    sendfile_target() { [[ $1 == *+sendfile/cache || $1 == nginx/sendfile-on/cache ]]; }
    for run in $(seq "$runs"); do
        progress "2. 1 MiB wrk -c8, run $run/$runs"
        for t in "${targets2[@]}"; do
            read -r _ mib cpu _ < <(wrk_run "$t" /1M.bin 8)
            vals[$t|mib]+="$mib "
            vals[$t|mibcpu]+="$cpu "
            if sendfile_target "$t"; then
                read -r mib cpu < <(own_1m_run "$t")
                vals[$t|ownmib]+="$mib "
                vals[$t|owncpu]+="$cpu "
            fi
        done
    done
    echo
    echo "== 2. 1 MiB keep-alive, -c8, caching variants, median of $runs x ${seconds}s"
    echo "   wrk = wrk -t1 -c8; own = servelab-cli load --model duration -c 8 --threads 1 (sendfile targets)"
    printf '%-28s %10s %10s %16s %10s %10s\n' target "wrk MiB/s" ratio "(against)" "us/MiB" "own MiB/s"
    for t in "${targets2[@]}"; do
        ref=- against=
        case $t in
        *+sendfile/cache) ref=nginx/sendfile-on/cache want=ge:1.1 ;;
        *+copy/cache) ref=nginx/sendfile-off/cache want=ge:1.0 ;;
        *+mmap/cache)
            # mmap against the best transfer: the same model's other transfers, else any built-in.
            model=${t%%+*}
            same=()
            for o in "${builtin_cache[@]}"; do [[ $o == "$model+"* && $o != "$t" ]] && same+=("$o"); done
            [ ${#same[@]} = 0 ] && same=("${builtin_cache[@]}")
            read -r _ ref < <(best max mib "${same[@]}")
            want=ge:0.9 ;;
        esac
        r=-
        if [ "$ref" != - ]; then
            r=$(ratio "$(fig "$t" mib)" "$(fig "$ref" mib)")
            against="($ref)"
            goal "2. MiB/s $t / $ref, under wrk" "$r" "${want%:*}" "${want#*:}"
            if [[ $t == *+sendfile/cache ]]; then
                goal "2. MiB/s $t / $ref, under servelab load" \
                    "$(ratio "$(fig "$t" ownmib)" "$(fig "$ref" ownmib)")" ge 1.1
                goal "2. server CPU/MiB $t / $ref, under wrk" \
                    "$(ratio "$(fig "$t" mibcpu)" "$(fig "$ref" mibcpu)")" info -
            fi
        fi
        own=-
        sendfile_target "$t" && own=$(fig "$t" ownmib)
        printf '%-28s %10s %10s %16s %10s %10s\n' "$t" "$(fig "$t" mib)" "$([ "$ref" = - ] && echo "" || echo "$r")" \
            "$against" "$(fig "$t" mibcpu)" "$own"
    done
    read -r own_mib own_mib_t < <(best min mibcpu "${builtin_cache[@]}")
    read -r peer_mib peer_mib_t < <(best min mibcpu "${caching_peers[@]}")
    goal "2. server CPU/MiB best built-in+cache ($own_mib_t) / best caching peer ($peer_mib_t), under wrk" \
        "$(ratio "$own_mib" "$peer_mib")" le 0.9
fi

# ---- 3. the seeds' sweep: ab -c 1, no keep-alive ------------------------------------------------
if want 3; then
    # N per size from a short ab run on nginx, so that each run lasts about SECONDS/3 (four per run:
    # two clients on two servers; a second at the default, as in compare_ab.sh); at least 20
    # requests, at most 50000.
    sweep_servers=(nginx/sendfile-on epoll+sendfile)
    ab_run() { # url n: "KiB/s failed"
        bounded ab -q -n "$2" -c 1 "$1" >"$work/ab.out" 2>&1 || true
        awk '/^Transfer rate:/ { r = $3 } /^Failed requests:/ { f = $3 } /^Non-2xx/ { f += $3 }
             END { print (r == "" ? "-" : r), (f == "" ? "-" : f) }' "$work/ab.out"
    }
    load_run() { # url n: "KiB/s failed"
        bounded "$cli" load --http1.0 --ab-reads -n "$2" -c 1 --json "$1" >"$work/load.json" 2>"$work/load.err" || true
        json "$work/load.json" "$work/load.err" kib_per_s failed
    }
    declare -A sweep_n
    for size in "${sizes[@]}"; do
        bytes=$(stat -c %s "$work/root/$size.bin")
        pilot=$((64 * 1048576 / bytes))
        [ $pilot -gt 2000 ] && pilot=2000
        [ $pilot -lt 5 ] && pilot=5
        bounded ab -q -n $pilot -c 1 "${url[nginx/sendfile-on]}/$size.bin" >"$work/ab.out" 2>&1 || true
        n=$(awk -v p=$pilot -v s="$seconds" '/^Time taken for tests:/ && $5 > 0 { n = int(p / $5 * s / 3) }
            END { if (n < 20) n = 20; if (n > 50000) n = 50000; print n }' "$work/ab.out")
        sweep_n[$size]=$n
        for run in $(seq "$runs"); do
            progress "3. sweep $size, ab/load -c 1 -n $n, run $run/$runs"
            for t in "${sweep_servers[@]}"; do
                read -r kib failed < <(ab_run "${url[$t]}/$size.bin" "$n")
                vals[$t|ab$size]+="$kib "
                [ "$failed" = 0 ] || errs[$t$size]=" (failed requests)"
                read -r kib failed < <(load_run "${url[$t]}/$size.bin" "$n")
                vals[$t|load$size]+="$kib "
                [ "$failed" = 0 ] || errs[$t$size]=" (failed requests)"
            done
        done
    done
    echo
    echo "== 3. sweep, no keep-alive, -c 1, KiB/s, median of $runs runs of -n N (N: about $(awk -v s="$seconds" 'BEGIN { printf "%.1f", s / 3 }') s a run)"
    echo "   ab = ab -c 1 -n N; load = servelab-cli load --http1.0 --ab-reads -c 1 -n N"
    printf '%-5s %6s %12s %12s %7s %12s %12s %7s %9s %9s\n' size N "ab nginx" "ab servelab" ratio \
        "load nginx" "load servelab" ratio "load/ab n" "load/ab s"
    for size in "${sizes[@]}"; do
        an=$(fig nginx/sendfile-on "ab$size") as=$(fig epoll+sendfile "ab$size")
        ln=$(fig nginx/sendfile-on "load$size") ls=$(fig epoll+sendfile "load$size")
        rab=$(ratio "$as" "$an") rload=$(ratio "$ls" "$ln") cn=$(ratio "$ln" "$an") cs=$(ratio "$ls" "$as")
        printf '%-5s %6s %12s %12s %7s %12s %12s %7s %9s %9s%s\n' "$size" "${sweep_n[$size]}" "$an" "$as" \
            "$rab" "$ln" "$ls" "$rload" "$cn" "$cs" "${errs[nginx/sendfile-on$size]:-}${errs[epoll+sendfile$size]:-}"
        goal "3. $size KiB/s epoll+sendfile / nginx, under ab" "$rab" ge 1.0
        goal "3. $size KiB/s epoll+sendfile / nginx, under servelab load" "$rload" ge 1.0
        goal "3. $size servelab load / ab, on nginx" "$cn" within 0.03
        goal "3. $size servelab load / ab, on epoll+sendfile" "$cs" within 0.03
    done
fi

# ---- 4. the clients: wrk, servelab load, h2load; then the rate model -----------------------------
if want 4; then
    # One client run, under GNU time: "req/s client-µs-per-request". The client's CPU time is its
    # user + system time as wait4() reports it (timeout and taskset add nothing measurable).
    client_run() { # client url connections
        local rps=- n=-
        case $1 in
        wrk)
            /usr/bin/time -f '%U %S' -o "$work/time" timeout -k 5 $((seconds + 30)) taskset -c 1 \
                wrk -t1 -c"$3" -d"${seconds}s" "$2" >"$work/client.out" 2>&1 || true
            read -r rps n < <(awk '/Requests\/sec:/ { r = $2 } / requests in / { n = $1 }
                END { print (r == "" ? "-" : r), (n == "" ? "-" : n) }' "$work/client.out") ;;
        servelab)
            /usr/bin/time -f '%U %S' -o "$work/time" timeout -k 5 $((seconds + 30)) taskset -c 1 \
                "$cli" load --model duration -d "$seconds" -c "$3" --threads 1 --json "$2" \
                >"$work/client.out" 2>"$work/client.err" || true
            read -r rps n < <(json "$work/client.out" "$work/client.err" requests_per_s completed) ;;
        h2load)
            /usr/bin/time -f '%U %S' -o "$work/time" timeout -k 5 $((seconds + 30)) taskset -c 1 \
                h2load --h1 -c"$3" -t1 -D "$seconds" "$2" >"$work/client.out" 2>&1 || true
            read -r rps n < <(awk '/^finished in/ { r = $4 } /^requests:/ { n = $8 }
                END { print (r == "" ? "-" : r), (n == "" ? "-" : n) }' "$work/client.out") ;;
        esac
        # GNU time writes "Command exited with non-zero status" first when it did: the last line.
        tail -1 "$work/time" | awk -v r="$rps" -v n="$n" '{ printf "%s %s\n", r,
            (n != "-" && n > 0) ? sprintf("%.3f", ($1 + $2) * 1e6 / n) : "-" }'
    }
    # The two loads of the goals: 4 KiB at -c64 (requests), 1 MiB at -c8 (bytes).
    client_servers=(nginx/sendfile-on/cache epoll+sendfile/cache)
    client_loads=("4K 64" "1M 8")
    for run in $(seq "$runs"); do
        progress "4. clients, run $run/$runs"
        for load in "${client_loads[@]}"; do
            read -r size conns <<<"$load"
            for t in "${client_servers[@]}"; do
                for c in "${clients[@]}"; do
                    read -r rps cpu < <(client_run "$c" "${url[$t]}/$size.bin" "$conns")
                    k="$t|$size-$c"
                    vals[$k-rps]+="$rps "
                    vals[$k-cpu]+="$cpu "
                    # Each client against the wrk run just before it on the same server (wrk
                    # goes first): the machine's drift, here up to 1.7x within a minute,
                    # cancels in the pair.
                    [ "$c" = wrk ] && wrk_rps=$rps wrk_cpu=$cpu
                    vals[$k-rr]+="$(ratio "$rps" "$wrk_rps") "
                    vals[$k-rc]+="$(ratio "$cpu" "$wrk_cpu") "
                done
            done
        done
    done
    echo
    echo "== 4. clients, keep-alive one thread, ${seconds}s, median of $runs; the ratios are medians"
    echo "   of each run's ratio to the wrk run just before it on the same server"
    echo "   wrk -t1 -cC -d S; servelab = servelab-cli load --model duration -d S -c C --threads 1${clients[2]:+; h2load --h1 -cC -t1 -D S}"
    printf '%-26s %-7s %-9s %12s %20s %14s %14s\n' server load client req/s "client CPU us/req" "req/s / wrk" "CPU / wrk"
    for load in "${client_loads[@]}"; do
        read -r size conns <<<"$load"
        for t in "${client_servers[@]}"; do
            for c in "${clients[@]}"; do
                k="$t|$size-$c"
                printf '%-26s %-7s %-9s %12s %20s %14s %14s\n' "$t" "$size-c$conns" "$c" "$(median "${vals[$k-rps]}")" \
                    "$(median "${vals[$k-cpu]}")" "$(median "${vals[$k-rr]}")" "$(median "${vals[$k-rc]}")"
            done
            k="$t|$size-servelab"
            goal "4. req/s servelab load / wrk, $size -c$conns on $t" "$(median "${vals[$k-rr]}")" ge 1.0
            goal "4. client CPU/req servelab load / wrk, $size -c$conns on $t" "$(median "${vals[$k-rc]}")" le 1.0
            if [ -n "${clients[2]:-}" ]; then
                goal "4. req/s servelab load / h2load, $size -c$conns on $t" \
                    "$(ratio "$(median "${vals[$k-rps]}")" "$(median "${vals[$t|$size-h2load-rps]}")")" info -
            fi
        done
    done

    # The rate model at 50 % and 90 % of epoll+sendfile's capacity (its 4 KiB wrk figure, cache on).
    rate_target=epoll+sendfile/cache
    capacity=$(fig $rate_target rps)
    declare -A offered
    for pct in 50 90; do
        offered[$pct]=$(awk -v c="$capacity" -v p=$pct 'BEGIN { print c == "-" ? "-" : int(c * p / 100) }')
    done
    if [ "${offered[50]}" = - ]; then
        echo "rate: not measured (it offers shares of section 1's capacity: add 1 to SECTIONS)" >&2
    else
        for run in $(seq "$runs"); do
            progress "4. rate at 50 % and 90 %, run $run/$runs"
            for pct in 50 90; do
                bounded "$cli" load --model rate -R "${offered[$pct]}" -d "$seconds" -c 64 --threads 1 --json \
                    "${url[$rate_target]}/4K.bin" >"$work/rate.json" 2>"$work/rate.err" || true
                read -r achieved late missed < <(json "$work/rate.json" "$work/rate.err" requests_per_s late missed)
                vals[rate|$pct]+="$achieved "
                vals[rate|late$pct]+="$late "
                vals[rate|missed$pct]+="$missed "
            done
        done
    fi
    echo
    echo "rate: servelab-cli load --model rate -R R -d $seconds -c 64 --threads 1 on $rate_target, capacity $capacity req/s"
    printf '%-8s %12s %12s %9s %10s %10s\n' offered "R req/s" achieved ratio late missed
    for pct in 50 90; do
        r=$(ratio "$(fig rate $pct)" "${offered[$pct]}")
        printf '%-8s %12s %12s %9s %10s %10s\n' "$pct %" "${offered[$pct]}" "$(fig rate $pct)" "$r" \
            "$(fig rate late$pct)" "$(fig rate missed$pct)"
        goal "4. rate achieved / offered at $pct % of capacity" "$r" within 0.02
    done
fi

# ---- Goals ---------------------------------------------------------------------------------------
echo
echo "== Goals (a benchmark: reported, never failed on)"
printf '%-88s %8s %10s  %s\n' ratio value goal verdict
for g in "${goals[@]}"; do
    IFS='|' read -r label value how bound <<<"$g"
    awk -v l="$label" -v v="$value" -v h="$how" -v b="$bound" 'BEGIN {
        goal = h == "le" ? "<= " b : h == "ge" ? ">= " b : h == "within" ? sprintf("1 +-%g%%", b * 100) : "(info)"
        if (h == "info") verdict = ""
        else if (v == "-") verdict = "not measured"
        else if (h == "le") verdict = v <= b ? "met" : "NOT met"
        else if (h == "ge") verdict = v >= b ? "met" : "NOT met"
        else verdict = (v >= 1 - b && v <= 1 + b) ? "met" : "NOT met"
        printf "%-88s %8s %10s  %s\n", l, v, goal, verdict }'
done
echo
echo "done in ${SECONDS}s (estimate was ${estimate}s)"
