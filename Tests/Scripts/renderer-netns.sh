#!/bin/bash
# For trying casting by hand (the tests use TestSupport's RendererLab): a network namespace joined to this one by a
# veth pair, with a gmediarender inside it. gmediarender refuses the loopback interface
# (UPNP_E_INVALID_INTERFACE), so SSDP and SOAP travel over the veth pair.
#   renderer-netns.sh up N [NAME]   namespace gstplay-rN, host side vrN-h 10.77.N.1/24, inside vrN-r 10.77.N.2/24,
#                                   gmediarender "NAME" (default "Lab renderer N") logging to /tmp/renderer-N.log
#   renderer-netns.sh down N        kills the renderer, removes the namespace (the veth pair goes with it)
set -euo pipefail
action=${1:?up|down}; n=${2:?number 1..250}
ns=gstplay-r$n; host_if=vr$n-h; ns_if=vr$n-r
case $action in
up)
    ip netns add "$ns"
    ip link add "$host_if" type veth peer name "$ns_if"
    ip link set "$ns_if" netns "$ns"
    ip addr add 10.77.$n.1/24 dev "$host_if"
    ip link set "$host_if" multicast on up
    ip route add 224.0.0.0/4 dev "$host_if" 2>/dev/null || true
    ip netns exec "$ns" ip addr add 10.77.$n.2/24 dev "$ns_if"
    ip netns exec "$ns" ip link set lo up
    ip netns exec "$ns" ip link set "$ns_if" multicast on up
    ip netns exec "$ns" ip route add 224.0.0.0/4 dev "$ns_if"
    ip netns exec "$ns" gmediarender -I "$ns_if" -u "gstplay-lab-$n" -f "${3:-Lab renderer $n}" -o gst --gstout-audiopipe "fakesink sync=true" \
        --gstout-videopipe "fakesink sync=true" --logfile /tmp/renderer-$n.log -P /tmp/renderer-$n.pid -d
    echo "host interface $host_if 10.77.$n.1, renderer 10.77.$n.2, pid $(cat /tmp/renderer-$n.pid 2>/dev/null)"
    ;;
down)
    [ -f /tmp/renderer-$n.pid ] && kill "$(cat /tmp/renderer-$n.pid)" 2>/dev/null || true
    rm -f /tmp/renderer-$n.pid
    ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
    ;;
esac
