#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Every server mode this build runs serves byte-identical files to curl and to ab, both with
# keep-alive: sizes 0, 1, 4K, 48K-1, 48K (the sendfile threshold), 1M+7 and 32M.
# Usage: realclients.sh SERVELAB_CLI. Needs curl and ab (packaging/packages.txt, set test).
set -euo pipefail

cli=$1
for tool in curl ab cmp; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (packaging/packages.txt)"; exit 1; }
done

work=$(mktemp -d)
server_pid=
cleanup() {
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

sizes=(0 1 4096 49151 49152 1048583 33554432)
mkdir "$work/root"
for size in "${sizes[@]}"; do
    head -c "$size" /dev/urandom >"$work/root/$size.bin"
done

failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

modes=$("$cli" modes 2>/dev/null)
[[ -n $modes ]] || { echo "FAIL: servelab-cli modes printed nothing"; exit 1; }

for mode in $modes; do
    # Created here: the background job opens its redirection only once it runs, and the loop
    # below may read before that.
    : >"$work/serve-$mode.out"
    "$cli" serve --root "$work/root" --mode "$mode" --port 0 --threads 4 >>"$work/serve-$mode.out" 2>&1 &
    server_pid=$!
    port=
    # Until it says where it listens (30 s at most: an ASan build on a busy machine is slow to
    # start); the sleep is only the poll's pace.
    for _ in $(seq 300); do
        port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$work/serve-$mode.out")
        [[ -n $port ]] && break
        sleep 0.1
    done
    if [[ -z $port ]]; then
        fail "$mode did not start: $(head -3 "$work/serve-$mode.out")"
        kill "$server_pid" 2>/dev/null || true
        server_pid=
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

    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    echo "ok: $mode"
done

if ((failures > 0)); then
    echo "$failures failure(s)"
    exit 1
fi
echo "all modes serve identical bytes to curl and ab -k"
