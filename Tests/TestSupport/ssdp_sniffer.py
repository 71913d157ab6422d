#!/usr/bin/env python3
"""Every SSDP packet (UDP to or from port 1900, IPv4 and IPv6) seen on one interface.

Usage: ssdp_sniffer.py IFACE. Started by the tests (Tests/TestSupport/SSDPSniffer.swift), usually
inside a RendererLab namespace with `ip netns exec`. An AF_PACKET socket on IFACE sees every frame
the link carries in both directions, whoever sent it and whether or not anyone joined the group,
so a process that sends SSDP on the link cannot hide from it. Prints "READY" once the socket is
bound, then one JSON line per packet: {"src", "dst", "sport", "dport", "outgoing", "start"} where
"start" is the payload's first line ("M-SEARCH * HTTP/1.1", "NOTIFY * HTTP/1.1", ...). Exits when
its stdin closes, so it never outlives the test process.
"""
import json
import socket
import struct
import sys
import threading

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


def parse(frame):
    """(src, dst, sport, dport, payload) of a UDP datagram in an Ethernet frame, else None."""
    if len(frame) < 14:
        return None
    ethertype = struct.unpack("!H", frame[12:14])[0]
    ip = frame[14:]
    if ethertype == 0x0800 and len(ip) >= 20 and ip[9] == 17:
        header = (ip[0] & 0x0F) * 4
        src, dst = socket.inet_ntop(socket.AF_INET, ip[12:16]), socket.inet_ntop(socket.AF_INET, ip[16:20])
        udp = ip[header:]
    elif ethertype == 0x86DD and len(ip) >= 40 and ip[6] == 17:
        src, dst = socket.inet_ntop(socket.AF_INET6, ip[8:24]), socket.inet_ntop(socket.AF_INET6, ip[24:40])
        udp = ip[40:]
    else:
        return None
    if len(udp) < 8:
        return None
    sport, dport = struct.unpack("!HH", udp[0:4])
    return src, dst, sport, dport, udp[8:]


def main():
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.bind((sys.argv[1], 0))
    print("READY", flush=True)

    def read():
        while True:
            frame, address = sock.recvfrom(65535)
            found = parse(frame)
            if found is None or 1900 not in (found[2], found[3]):
                continue
            src, dst, sport, dport, payload = found
            start = payload.split(b"\r\n", 1)[0].decode("latin-1")
            print(json.dumps({"src": src, "dst": dst, "sport": sport, "dport": dport,
                              "outgoing": address[2] == PACKET_OUTGOING, "start": start}), flush=True)

    threading.Thread(target=read, daemon=True).start()
    sys.stdin.read()


if __name__ == "__main__":
    main()
