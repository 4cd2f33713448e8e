# SPDX-License-Identifier: Apache-2.0
# What the real-client scripts share (realclients.sh, h2clients.sh), sourced after `cli` is set:
# a work folder with the fixture files (sizes), fail(), and serve_mode/stop_server around
# `servelab-cli serve`. The work folder and any server left are gone at exit.

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

# serve_mode MODE [FLAGS...]: starts `serve` in the background; sets port, or fails and says why.
serve_mode() {
    local mode=$1
    shift
    # Created here: the background job opens its redirection only once it runs, and the loop
    # below may read before that.
    : >"$work/serve-$mode.out"
    "$cli" serve --root "$work/root" --mode "$mode" --port 0 --threads 4 "$@" >>"$work/serve-$mode.out" 2>&1 &
    server_pid=$!
    port=
    # Until it says where it listens (30 s at most: an ASan build on a busy machine is slow to
    # start); the sleep is only the poll's pace.
    for _ in $(seq 300); do
        port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$work/serve-$mode.out")
        [[ -n $port ]] && break
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    [[ -n $port ]] && return 0
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    return 1
}

stop_server() {
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
}


# https: the self-signed pair serve makes (in $XDG_CACHE_HOME/servelab/tls) is the CA a client
# checks against; whether this kernel can take a sendfile mode's TLS (kernel_tls yes or no).
tls_dir=${XDG_CACHE_HOME:-$HOME/.cache}/servelab/tls
kernel_tls=no
if grep -qw tls /proc/sys/net/ipv4/tcp_available_ulp 2>/dev/null; then kernel_tls=yes; fi
