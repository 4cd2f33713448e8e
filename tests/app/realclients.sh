#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Every server mode this build runs serves byte-identical files to curl and to ab, both with
# keep-alive: sizes 0, 1, 4K, 48K-1, 48K (the sendfile threshold), 1M+7 and 32M. Then the same
# over https (--tls self-signed) to curl --cacert, ab and wrk, for every mode that takes TLS; a
# sendfile mode must refuse to start where the kernel has no TLS, saying so.
# Usage: realclients.sh SERVELAB_CLI. Needs curl and ab (packaging/packages.txt, set test); wrk
# too for the https pass, when installed.
set -euo pipefail

cli=$1
for tool in curl ab cmp; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (packaging/packages.txt)"; exit 1; }
done

. "$(dirname "$0")/servelib.sh"

for mode in $modes; do
    if ! serve_mode "$mode"; then
        fail "$mode did not start: $(head -3 "$work/serve-$mode.out")"
        continue
    fi

    # curl: all sizes over one kept-alive connection; each body compared byte for byte.
    args=()
    for size in "${sizes[@]}"; do
        args+=("http://127.0.0.1:$port/$size.bin" -o "$work/curl-$size")
    done
    if ! curl -sS --fail --max-time 60 "${args[@]}" 2>"$work/curl.err"; then
        fail "$mode: curl: $(head -1 "$work/curl.err")"
    fi
    # The second transfer made no new connection: the first one was kept alive and reused.
    connects=$(curl -sS --max-time 60 -o /dev/null -o /dev/null -w '%{num_connects}\n' \
        "http://127.0.0.1:$port/1.bin" "http://127.0.0.1:$port/4096.bin" 2>&1 | tr '\n' ' ')
    [[ $connects == "1 0 " ]] || fail "$mode: curl did not keep the connection alive (connects: $connects)"
    for size in "${sizes[@]}"; do
        cmp -s "$work/root/$size.bin" "$work/curl-$size" ||
            fail "$mode: curl got a different $size.bin ($(stat -c %s "$work/curl-$size" 2>/dev/null || echo no) bytes)"
    done

    # ab -k: every response complete (ab's length check), all on kept-alive connections.
    for size in "${sizes[@]}"; do
        n=8
        out=$(ab -k -n $n -c 2 -s 30 "http://127.0.0.1:$port/$size.bin" 2>&1) || {
            fail "$mode: ab $size: $(echo "$out" | tail -1)"
            continue
        }
        grep -q "^Failed requests: *0$" <<<"$out" || fail "$mode: ab $size: $(grep '^Failed' <<<"$out")"
        grep -q "^Non-2xx" <<<"$out" && fail "$mode: ab $size: $(grep '^Non-2xx' <<<"$out")"
        grep -q "^Keep-Alive requests: *$n$" <<<"$out" || fail "$mode: ab $size: $(grep '^Keep-Alive' <<<"$out")"
        grep -q "^HTML transferred: *$((n * size)) bytes$" <<<"$out" ||
            fail "$mode: ab $size: $(grep '^HTML transferred' <<<"$out"), expected $((n * size))"
    done

    stop_server
    echo "ok: $mode"
done

# https: curl checks against the self-signed pair ($tls_dir); ab and wrk do not check.
for mode in $modes; do
    case $mode in qt+*) continue ;; esac
    if [[ $mode == *+sendfile && $kernel_tls == no ]]; then
        if serve_mode "$mode" --tls self-signed; then
            fail "$mode started over https without kernel TLS"
            stop_server
        elif ! grep -q "needs kernel TLS" "$work/serve-$mode.out"; then
            fail "$mode over https: refused without the reason: $(head -1 "$work/serve-$mode.out")"
        else
            echo "ok: $mode over https refused here (no kernel TLS)"
        fi
        continue
    fi
    if ! serve_mode "$mode" --tls self-signed; then
        fail "$mode did not start over https: $(head -3 "$work/serve-$mode.out")"
        continue
    fi
    args=()
    for size in "${sizes[@]}"; do
        args+=("https://127.0.0.1:$port/$size.bin" -o "$work/curl-$size")
    done
    rm -f "$work"/curl-*
    if ! curl -sS --fail --max-time 120 --cacert "$tls_dir/localhost-p256.crt" "${args[@]}" 2>"$work/curl.err"; then
        fail "$mode https: curl: $(head -1 "$work/curl.err")"
    fi
    for size in "${sizes[@]}"; do
        cmp -s "$work/root/$size.bin" "$work/curl-$size" ||
            fail "$mode https: curl got a different $size.bin ($(stat -c %s "$work/curl-$size" 2>/dev/null || echo no) bytes)"
    done
    for size in 1 49152 1048583; do
        out=$(ab -k -n 8 -c 2 -s 30 "https://127.0.0.1:$port/$size.bin" 2>&1) || {
            fail "$mode https: ab $size: $(echo "$out" | tail -1)"
            continue
        }
        grep -q "^Failed requests: *0$" <<<"$out" || fail "$mode https: ab $size: $(grep '^Failed' <<<"$out")"
        grep -q "^HTML transferred: *$((8 * size)) bytes$" <<<"$out" ||
            fail "$mode https: ab $size: $(grep '^HTML transferred' <<<"$out"), expected $((8 * size))"
    done
    if command -v wrk >/dev/null; then
        out=$(wrk -t1 -c2 -d1s "https://127.0.0.1:$port/49152.bin" 2>&1) || fail "$mode https: wrk: $(tail -1 <<<"$out")"
        grep -qE "Socket errors|Non-2xx" <<<"$out" && fail "$mode https: wrk: $(grep -E 'Socket errors|Non-2xx' <<<"$out")"
        grep -qE "^ +[1-9][0-9]* requests in" <<<"$out" || fail "$mode https: wrk made no request: $out"
    fi
    stop_server
    echo "ok: $mode over https"
done

if ((failures > 0)); then
    echo "$failures failure(s)"
    exit 1
fi
echo "all modes serve identical bytes to curl and ab -k, over http and https"
