#!/usr/bin/python3
"""The IPv6 ICRC vectors of IcrcIpv6VectorTest, built with scapy (python3-scapy 2.5).

scapy 2.5's BTH.compute_icrc handles IPv4 only ("TODO support IPv6"), so this does for IPv6
what its IPv4 branch does: copy the packet behind 8 x 0xFF, set the variable fields to all
ones through scapy's own IPv6/UDP/BTH fields (tc = 0xFF, fl = 0xFFFFF, hlim = 0xFF, UDP
chksum = 0xFFFF, BTH fecn = becn = 1, resv6 = 0x3F), and take zlib's CRC-32 of the result
without the ICRC slot, stored least-significant byte first (ROCEV2-FACTS 1.8).
Run: /usr/bin/python3 icrc_ipv6_vector_scapy.py
"""
import struct
from zlib import crc32
from scapy.all import IPv6, UDP, Raw, raw
from scapy.contrib.roce import BTH, AETH


def icrc_v6(pkt):
    ps = Raw(b'\xff' * 8) / pkt.copy()
    ps[IPv6].tc = 0xff
    ps[IPv6].fl = 0xfffff
    ps[IPv6].hlim = 0xff
    ps[UDP].chksum = 0xffff
    ps[BTH].fecn = 1
    ps[BTH].becn = 1
    ps[BTH].resv6 = 0x3f
    return struct.pack('<I', crc32(raw(ps)[:-4]) & 0xffffffff)


def emit(name, pkt):
    data = raw(pkt)
    print(name, (data[:-4] + icrc_v6(pkt)).hex())


# ROCEV2-FACTS 1.9(c) over IPv6: RC SEND_ONLY "hello" + 3 pad, DestQP 0x12, AckReq, PSN 0x100.
# The header fields the ICRC masks are set to arbitrary values to show they do not matter.
send = (IPv6(src='fd00::1', dst='fd00::2', tc=0x28, fl=0x12345, hlim=64)
        / UDP(sport=0xC123, dport=4791, chksum=0x1234)
        / BTH(opcode=0x04, padcount=3, pkey=0xffff, dqpn=0x12, ackreq=1, psn=0x100, icrc=0)
        / Raw(b'hello\x00\x00\x00'))
emit('rc_send_only', send)
# 1.9(d) over IPv6: RC ACKNOWLEDGE, ::1 to ::1 (a soft device talking to itself), DestQP 0x34.
ack = (IPv6(src='::1', dst='::1', hlim=1)
       / UDP(sport=4791, dport=4791, chksum=0)
       / BTH(opcode=0x11, pkey=0xffff, dqpn=0x34, psn=0x100, icrc=0)
       / AETH(syndrome=0x1f, msn=1))
emit('rc_ack', ack)
