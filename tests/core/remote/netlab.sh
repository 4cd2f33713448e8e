#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The multi-host fixture: hosts made of network namespaces on this machine, each with a real
# sshd, joined by veth pairs to a bridge on a private subnet that exists only inside them.
#
#   netlab.sh up DIR TAG     builds it; writes DIR/env (the names and addresses, for the test)
#   netlab.sh down DIR TAG   takes it all down (sshds, namespaces); safe to run twice
#
# Hosts (namespace TAG-NAME, address 10.213.7.N):
#   coord .1   where the coordinator runs (`ip netns exec TAG-coord servelab-cli ...`)
#   srv   .2   the server host
#   a1    .3   a load host behind a rate-limited link (tc tbf, 200 mbit)
#   a2    .4   a load host in a time namespace whose monotonic clock is an hour ahead
# plus TAG-hub with the bridge. Keys: DIR/client_key (authorized everywhere), DIR/wrong_key
# (nowhere), host keys per host in DIR/NAME/; DIR/known_hosts knows all of them, DIR/ssh_config
# is the client's whole configuration. Nothing here touches the root namespace's network.
# Needs root, ip (iproute2), tc, unshare (util-linux), sshd and ssh (openssh-server, -client).
set -euo pipefail

action=${1:?up or down}
dir=${2:?a directory}
tag=${3:?a tag of at most 6 characters}
subnet=10.213.7
hosts=(coord srv a1 a2)
declare -A octet=([coord]=1 [srv]=2 [a1]=3 [a2]=4)

down() {
    for host in "${hosts[@]}"; do
        if [ -f "$dir/$host/sshd.pid" ]; then
            kill "$(cat "$dir/$host/sshd.pid")" 2>/dev/null || true
            rm -f "$dir/$host/sshd.pid"
        fi
    done
    # Anything still running in the namespaces (agents, servers they started) goes with them.
    for host in "${hosts[@]}" hub; do
        if ip netns pids "$tag-$host" >/dev/null 2>&1; then
            for pid in $(ip netns pids "$tag-$host"); do kill -9 "$pid" 2>/dev/null || true; done
            ip netns del "$tag-$host" 2>/dev/null || true
        fi
    done
}

up() {
    [ "$(id -u)" = 0 ] || { echo "netlab.sh: needs root (network namespaces)" >&2; exit 77; }
    for tool in ip tc unshare ssh ssh-keygen /usr/sbin/sshd; do
        command -v "$tool" >/dev/null || { echo "netlab.sh: $tool is missing" >&2; exit 77; }
    done
    # What this machine must allow, tried before anything is built: a skip says which is missing.
    local why
    if ! why=$(ip netns add "$tag-probe" 2>&1); then
        echo "netlab.sh: cannot make network namespaces here: $why" >&2; exit 77
    fi
    if ! why=$(ip netns exec "$tag-probe" unshare --time --monotonic 1 true 2>&1); then
        ip netns del "$tag-probe"
        echo "netlab.sh: cannot make time namespaces here: $why" >&2; exit 77
    fi
    ip netns del "$tag-probe"
    mkdir -p "$dir" /run/sshd
    chmod 700 "$dir"
    ssh-keygen -q -t ed25519 -N '' -C servelab-test -f "$dir/client_key"
    ssh-keygen -q -t ed25519 -N '' -C servelab-wrong -f "$dir/wrong_key"
    cp "$dir/client_key.pub" "$dir/authorized_keys"
    : > "$dir/known_hosts"
    : > "$dir/empty_known_hosts"

    ip netns add "$tag-hub"
    ip -n "$tag-hub" link add br0 type bridge
    ip -n "$tag-hub" link set br0 up
    for host in "${hosts[@]}"; do
        local ns=$tag-$host addr=$subnet.${octet[$host]}
        ip netns add "$ns"
        ip -n "$ns" link set lo up
        # Created inside the namespaces, so no name ever exists in the root namespace.
        ip -n "$ns" link add eth0 type veth peer name "p-$host" netns "$tag-hub"
        ip -n "$ns" addr add "$addr/24" dev eth0
        ip -n "$ns" link set eth0 up
        ip -n "$tag-hub" link set "p-$host" master br0 up
        mkdir -p "$dir/$host"
        [ "$host" = coord ] && continue
        ssh-keygen -q -t ed25519 -N '' -C "servelab-$host" -f "$dir/$host/host_key"
        printf '%s %s\n' "$addr" "$(cut -d' ' -f1-2 "$dir/$host/host_key.pub")" >> "$dir/known_hosts"
        cat > "$dir/$host/sshd_config" <<CONFIG
ListenAddress $addr
Port 22
HostKey $dir/$host/host_key
PidFile $dir/$host/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
X11Forwarding no
AllowTcpForwarding no
LogLevel ERROR
CONFIG
    done
    tc -n "$tag-a1" qdisc add dev eth0 root tbf rate 200mbit burst 256kb latency 50ms
    for host in srv a1; do
        ip netns exec "$tag-$host" /usr/sbin/sshd -f "$dir/$host/sshd_config" -E "$dir/$host/sshd.log"
    done
    # a2's sshd, and every agent it starts, read CLOCK_MONOTONIC an hour ahead of ours.
    ip netns exec "$tag-a2" unshare --time --monotonic 3600 --boottime 3600 \
        /usr/sbin/sshd -f "$dir/a2/sshd_config" -E "$dir/a2/sshd.log"

    cat > "$dir/ssh_config" <<CONFIG
Host *
    User root
    IdentitiesOnly yes
    UserKnownHostsFile $dir/known_hosts
    GlobalKnownHostsFile /dev/null
    ConnectTimeout 5
CONFIG
    cat > "$dir/env" <<ENV
coord=$tag-coord
srv=$subnet.${octet[srv]}
a1=$subnet.${octet[a1]}
a2=$subnet.${octet[a2]}
ENV
    # Ready when every sshd answers (its pid file is written once it listens).
    for host in srv a1 a2; do
        for _ in $(seq 50); do [ -s "$dir/$host/sshd.pid" ] && break; sleep 0.1; done
        [ -s "$dir/$host/sshd.pid" ] || { echo "netlab.sh: sshd on $host did not start: $(cat "$dir/$host/sshd.log")" >&2; exit 1; }
    done
}

case $action in
up) trap 'down' ERR; up ;;
down) down ;;
*) echo "netlab.sh: up or down, not $action" >&2; exit 2 ;;
esac
