#!/usr/bin/python3
"""One-off generator of ICRC cross-check vectors for IcrcCrossCheckTest.

IPv4 packets are built and ICRC'd by scapy's RoCE layer (scapy.contrib.roce, an implementation
independent of jrdma), with random IP IDs, DF or no flags, TOS, TTL, ports, opcodes, headers,
payload and pad. scapy 2.5 cannot compute an IPv6 ICRC, so IPv6 lines use the few lines of
zlib below (ROCEV2-FACTS §1.8), also independent of the Java code.

Usage: /usr/bin/python3 icrc_vectors_scapy.py [seed] [count] > ../resources/org/jrdma/soft/wire/icrc-vectors.txt
Each output line: "ipv4 <hex of the IP packet>" or "ipv6 <hex>"; the ICRC is the last 4 bytes.
"""
import random
import struct
import sys
import zlib

from scapy.all import IP, IPv6, UDP, Raw, raw
from scapy.contrib.roce import BTH

# opcode -> extension header bytes after the BTH (ROCEV2-FACTS §1.4), payload allowed
OPCODES = {}
for base in (0x00, 0x20):
    OPCODES.update({base + 0x00: (0, True), base + 0x01: (0, True), base + 0x02: (0, True),
                    base + 0x03: (4, True), base + 0x04: (0, True), base + 0x05: (4, True),
                    base + 0x06: (16, True), base + 0x07: (0, True), base + 0x08: (0, True),
                    base + 0x09: (4, True), base + 0x0A: (16, True), base + 0x0B: (20, True)})
OPCODES.update({0x0C: (16, False), 0x0D: (4, True), 0x0E: (0, True), 0x0F: (4, True),
                0x10: (4, True), 0x11: (4, False), 0x12: (12, False), 0x13: (28, False),
                0x14: (28, False), 0x16: (4, True), 0x17: (4, True), 0x64: (8, True), 0x65: (12, True)})
MIDDLE_OR_FIRST = {0x00, 0x01, 0x06, 0x07, 0x0D, 0x0E, 0x20, 0x21, 0x26, 0x27}


def random_transport(rng):
    opcode = rng.choice(sorted(OPCODES))
    ext_len, has_payload = OPCODES[opcode]
    payload_len = rng.randrange(0, 300) if has_payload else 0
    if opcode in MIDDLE_OR_FIRST:
        payload_len &= ~3          # full-MTU packets are a multiple of 4: no pad
    pad = -payload_len & 3
    bth = dict(opcode=opcode, solicited=rng.randrange(2), migreq=rng.randrange(2), padcount=pad,
               pkey=rng.choice([0xFFFF, rng.randrange(0x10000)]), fecn=rng.randrange(2), becn=rng.randrange(2),
               dqpn=rng.randrange(1 << 24), ackreq=rng.randrange(2), psn=rng.randrange(1 << 24))
    rest = rng.randbytes(ext_len + payload_len) + bytes(pad)
    return bth, rest


def ipv6_icrc(packet):
    """zlib CRC over 8xFF, the masked IPv6 and UDP headers, the BTH with byte 4 = FF, the rest."""
    p = bytearray(packet)
    p[0] |= 0x0F
    p[1:4] = b'\xff\xff\xff'   # traffic class low nibble + flow label
    p[7] = 0xFF                # hop limit
    p[46:48] = b'\xff\xff'     # UDP checksum
    p[48 + 4] = 0xFF           # BTH resv8a
    return struct.pack('<I', zlib.crc32(b'\xff' * 8 + bytes(p[:-4])))


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 4791
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rng = random.Random(seed)
    for i in range(count):
        bth, rest = random_transport(rng)
        sport = rng.randrange(0xC000, 0x10000)
        if i % 4 != 3:
            ip = IP(src='%d.%d.%d.%d' % tuple(rng.randrange(256) for _ in range(4)),
                    dst='%d.%d.%d.%d' % tuple(rng.randrange(256) for _ in range(4)),
                    id=rng.randrange(0x10000), flags=rng.choice(['DF', 0]), tos=rng.randrange(256),
                    ttl=rng.randrange(1, 256))
            pkt = ip / UDP(sport=sport, dport=4791, chksum=rng.choice([0, rng.randrange(0x10000)])) / \
                BTH(**bth) / Raw(rest)
            print('ipv4', raw(pkt).hex())
        else:
            ip = IPv6(src=':'.join('%x' % rng.randrange(0x10000) for _ in range(8)),
                      dst=':'.join('%x' % rng.randrange(0x10000) for _ in range(8)),
                      tc=rng.randrange(256), fl=rng.randrange(1 << 20), hlim=rng.randrange(1, 256))
            pkt = ip / UDP(sport=sport, dport=4791, chksum=0) / BTH(icrc=0, **bth) / Raw(rest)
            data = raw(pkt)
            print('ipv6', (data[:-4] + ipv6_icrc(data)).hex())


if __name__ == '__main__':
    main()
