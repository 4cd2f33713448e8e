#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# HTTP/2 (--http2 on) from every model that speaks it, to the clients users check servers with:
# curl --http2-prior-knowledge (h2c) and nghttp fetch the fixture files byte for byte, h2load
# loads 4K and 1M with streams side by side and must count every data byte, and python3-h2
# (h2check.py) fetches them side by side, then checks the codes of the protocol errors and
# that no descriptor is left. Then h2 over https by ALPN (curl --http2, h2load, h2check.py)
# for the modes that take TLS here. Last, the models that cannot refuse, and without --http2
# the preface is not taken.
# Usage: h2clients.sh SERVELAB_CLI. Needs curl, nghttp, h2load and python3-h2 (packages.txt).
set -euo pipefail

cli=$1
for tool in curl nghttp h2load cmp; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (packaging/packages.txt)"; exit 1; }
done
/usr/bin/python3 -c "import h2" 2>/dev/null || { echo "FAIL: python3-h2 is missing (packaging/packages.txt)"; exit 1; }
here=$(dirname "$0")
. "$here/servelib.sh"

# h2load_exact URL N SIZE WHAT [FLAGS...]: N requests, all 2xx, N*SIZE data bytes counted.
h2load_exact() {
    local url=$1 n=$2 size=$3 what=$4
    shift 4
    local out
    out=$(h2load -n "$n" "$@" "$url" 2>&1) || { fail "$what: h2load: $(tail -1 <<<"$out")"; return; }
    grep -q "^requests: $n total, $n started, $n done, $n succeeded, 0 failed" <<<"$out" ||
        fail "$what: h2load: $(grep '^requests:' <<<"$out")"
    grep -q "^status codes: $n 2xx" <<<"$out" || fail "$what: h2load: $(grep '^status codes' <<<"$out")"
    grep -qE "\($((n * size))\) data" <<<"$out" ||
        fail "$what: h2load counted $(grep -oE '\([0-9]+\) data' <<<"$out"), expected $((n * size))"
}

h2_modes=()
for mode in $modes; do
    case $mode in qt+* | multiplex+*) continue ;; esac # they refuse --http2, saying why (below)
    h2_modes+=("$mode")
done

for mode in "${h2_modes[@]}"; do
    if ! serve_mode "$mode" --http2 on; then
        fail "$mode --http2 on did not start: $(head -3 "$work/serve-$mode.out")"
        continue
    fi
    base=http://127.0.0.1:$port
    # One curl per file: curl 7.88 (Debian 12) fails to reuse a prior-knowledge connection
    # ("Error in the HTTP2 framing layer" before it sends a byte; h2o's too). Streams side by
    # side on one connection are h2load's and h2check.py's to show.
    rm -f "$work"/curl-*
    for size in "${sizes[@]}"; do
        version=$(curl -sS --fail --http2-prior-knowledge --max-time 60 -w '%{http_version}' \
            -o "$work/curl-$size" "$base/$size.bin" 2>"$work/curl.err") ||
            fail "$mode h2c: curl $size: $(head -1 "$work/curl.err")"
        [[ $version == 2 ]] || fail "$mode h2c: curl spoke HTTP/$version for $size.bin"
        cmp -s "$work/root/$size.bin" "$work/curl-$size" ||
            fail "$mode h2c: curl got a different $size.bin ($(stat -c %s "$work/curl-$size" 2>/dev/null || echo no) bytes)"
    done
    for size in 4096 1048583 33554432; do
        nghttp "$base/$size.bin" >"$work/nghttp-$size" 2>"$work/nghttp.err" ||
            fail "$mode h2c: nghttp $size: $(head -1 "$work/nghttp.err")"
        cmp -s "$work/root/$size.bin" "$work/nghttp-$size" || fail "$mode h2c: nghttp got a different $size.bin"
    done
    h2load_exact "$base/4096.bin" 2000 4096 "$mode h2c 4K" -c 4 -m 10
    h2load_exact "$base/1048583.bin" 64 1048583 "$mode h2c 1M" -c 2 -m 4
    /usr/bin/python3 "$here/h2check.py" "$port" "$work/root" "$server_pid" >"$work/h2check.out" 2>&1 ||
        fail "$mode h2c: h2check.py: $(grep -v '^ok:' "$work/h2check.out" | head -3)"
    stop_server
    echo "ok: $mode over h2c"
done

for mode in "${h2_modes[@]}"; do
    [[ $mode == *+sendfile && $kernel_tls == no ]] && continue # refused: realclients.sh checks why
    if ! serve_mode "$mode" --http2 on --tls self-signed; then
        fail "$mode h2 did not start: $(head -3 "$work/serve-$mode.out")"
        continue
    fi
    base=https://127.0.0.1:$port
    rm -f "$work"/curl-*
    args=()
    for size in 0 4096 1048583 33554432; do
        args+=("$base/$size.bin" -o "$work/curl-$size")
    done
    versions=$(curl -sS --fail --http2 --cacert "$tls_dir/localhost-p256.crt" --max-time 60 -w '%{http_version} ' "${args[@]}" 2>"$work/curl.err") ||
        fail "$mode h2: curl: $(head -1 "$work/curl.err")"
    [[ $versions == "2 2 2 2 " ]] || fail "$mode h2: ALPN did not choose h2 for curl (versions '$versions')"
    for size in 0 4096 1048583 33554432; do
        cmp -s "$work/root/$size.bin" "$work/curl-$size" || fail "$mode h2: curl got a different $size.bin"
    done
    h2load_exact "$base/4096.bin" 1000 4096 "$mode h2 4K" -c 4 -m 10
    /usr/bin/python3 "$here/h2check.py" "$port" "$work/root" "$server_pid" --tls "$tls_dir/localhost-p256.crt" \
        >"$work/h2check.out" 2>&1 || fail "$mode h2: h2check.py: $(grep -v '^ok:' "$work/h2check.out" | head -3)"
    stop_server
    echo "ok: $mode over h2"
done

# The models that do not speak it refuse, saying why; and without --http2 the preface is not
# taken (curl's prior knowledge fails), nor is h2 offered by ALPN.
for model in qt multiplex; do
    if grep -qw "$model+copy" <<<"$modes"; then
        if serve_mode "$model+copy" --http2 on; then
            fail "$model+copy started with --http2 on"
            stop_server
        elif ! grep -q "is not spoken by the $model model" "$work/serve-$model+copy.out"; then
            fail "$model+copy --http2 on: refused without the reason: $(head -1 "$work/serve-$model+copy.out")"
        fi
    fi
done
if serve_mode epoll+copy; then
    curl -sS --http2-prior-knowledge --max-time 10 -o /dev/null "http://127.0.0.1:$port/1.bin" 2>/dev/null &&
        fail "epoll+copy without --http2 took the HTTP/2 preface"
    stop_server
fi

if ((failures > 0)); then
    echo "$failures failure(s)"
    exit 1
fi
echo "every h2 model serves identical bytes to curl, nghttp, h2load and python3-h2, over h2c and h2"
