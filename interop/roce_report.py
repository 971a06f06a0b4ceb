#!/usr/bin/env python3
"""RoCEv2 report of a classic Ethernet pcap, IPv4 and IPv6 alike: frames by BTH opcode,
retransmitted frames, and an ICRC check of every UDP/4791 frame.

Why our own: the lab's tools/check_icrc.py and scapy 2.5 know only IPv4, and the IPv6
interop run (rxe-pingpong-ipv6.sh) needs the IPv6 ICRC checked independently of jrdma's Java.
ICRC (IBTA annex A17; ROCEV2-FACTS §1.8): CRC-32 (zlib) over 8 bytes 0xFF (masked LRH), the
IP header with its variant fields set to 1s — IPv4: TOS, TTL, header checksum; IPv6: traffic
class, flow label, hop limit — the UDP header with checksum 0xFFFF, the BTH with byte 4
(FECN/BECN/resv) 0xFF, then the rest up to the ICRC, which is stored little-endian last.
The output lines match run-lab.sh's decode so interop/rxe-lib.sh reads either.
Usage: roce_report.py FILE.pcap [NAME]   (exit 1 if any frame fails its ICRC)
"""
import struct
import sys
import zlib

OPS = {0: "SEND_FIRST", 1: "SEND_MIDDLE", 2: "SEND_LAST", 3: "SEND_LAST_WITH_IMMEDIATE", 4: "SEND_ONLY",
       5: "SEND_ONLY_WITH_IMMEDIATE", 6: "RDMA_WRITE_FIRST", 7: "RDMA_WRITE_MIDDLE", 8: "RDMA_WRITE_LAST",
       9: "RDMA_WRITE_LAST_WITH_IMMEDIATE", 10: "RDMA_WRITE_ONLY", 11: "RDMA_WRITE_ONLY_WITH_IMMEDIATE",
       12: "RDMA_READ_REQUEST", 13: "RDMA_READ_RESPONSE_FIRST", 14: "RDMA_READ_RESPONSE_MIDDLE",
       15: "RDMA_READ_RESPONSE_LAST", 16: "RDMA_READ_RESPONSE_ONLY", 17: "ACKNOWLEDGE",
       18: "ATOMIC_ACKNOWLEDGE", 19: "COMPARE_SWAP", 20: "FETCH_ADD", 22: "SEND_LAST_WITH_INVALIDATE",
       23: "SEND_ONLY_WITH_INVALIDATE"}
TRANSPORTS = {0: "RC", 1: "UC", 2: "RD", 3: "UD", 4: "CNP", 5: "XRC"}


def frames(path):
    with open(path, "rb") as f:
        hdr = f.read(24)
        magic = struct.unpack("<I", hdr[:4])[0]
        endian = {0xA1B2C3D4: "<", 0xA1B23C4D: "<", 0xD4C3B2A1: ">", 0x4D3CB2A1: ">"}.get(magic)
        if endian is None:
            raise SystemExit(f"{path}: not a classic pcap file")
        if struct.unpack(endian + "I", hdr[20:24])[0] != 1:
            raise SystemExit(f"{path}: not Ethernet")
        n = 0
        while True:
            rh = f.read(16)
            if len(rh) < 16:
                return
            incl = struct.unpack(endian + "IIII", rh)[2]
            n += 1
            yield n, f.read(incl)


def roce(frame):
    """(source address, masked IP+UDP header, UDP payload) of a UDP/4791 frame, else None."""
    ethertype = frame[12:14]
    if ethertype == b"\x08\x00":
        ip = frame[14:]
        ihl = (ip[0] & 0x0F) * 4
        if ip[9] != 17:
            return None
        ip = ip[:struct.unpack(">H", ip[2:4])[0]]
        head = bytearray(ip[:ihl + 8])
        head[1] = 0xFF                 # TOS
        head[8] = 0xFF                 # TTL
        head[10:12] = b"\xff\xff"      # header checksum
        src = ".".join(str(b) for b in ip[12:16])
    elif ethertype == b"\x86\xdd":
        ip = frame[14:]
        if ip[6] != 17:                # next header UDP, no extension headers
            return None
        ihl = 40
        ip = ip[:40 + struct.unpack(">H", ip[4:6])[0]]
        head = bytearray(ip[:ihl + 8])
        head[0] |= 0x0F                # traffic class (high nibble) ...
        head[1:4] = b"\xff\xff\xff"    # ... traffic class (low nibble) and flow label
        head[7] = 0xFF                 # hop limit
        src = ip[8:24].hex()
    else:
        return None
    if len(head) < ihl + 8 or struct.unpack(">H", head[ihl + 2:ihl + 4])[0] != 4791:
        return None
    head[ihl + 6:ihl + 8] = b"\xff\xff"  # UDP checksum
    return src, bytes(head), ip[ihl + 8:]


def icrc_ok(head, payload):
    body = bytearray(payload[:-4])
    body[4] = 0xFF                     # BTH byte 4
    want = struct.unpack("<I", payload[-4:])[0]
    return zlib.crc32(b"\xff" * 8 + head + bytes(body)) & 0xFFFFFFFF == want


def main(path, name):
    counts, seen = {}, {}
    ok = bad = 0
    problems = []
    for n, fr in frames(path):
        r = roce(fr)
        if r is None:
            continue
        src, head, payload = r
        if len(payload) < 12 + 4:
            bad += 1
            problems.append(f"{path}: frame {n}: too short for BTH+ICRC")
            continue
        op, dqp, psn = payload[0], int.from_bytes(payload[5:8], "big"), int.from_bytes(payload[9:12], "big") & 0xFFFFFF
        key = f"0x{op:02x} {TRANSPORTS.get(op >> 5, '?')}_{OPS.get(op & 0x1F, 'OP%d' % (op & 0x1F))}"
        if dqp == 1:
            key += " (QP1/MAD)"
        counts[key] = counts.get(key, 0) + 1
        k = (src, dqp, op, psn) if dqp != 1 else (src, "mad", payload[12 + 8 + 8:12 + 8 + 16], payload[12 + 8 + 16:12 + 8 + 18])
        seen[k] = seen.get(k, 0) + 1
        if icrc_ok(head, payload):
            ok += 1
        else:
            bad += 1
            problems.append(f"{path}: frame {n}: ICRC mismatch: packet 0x{struct.unpack('<I', payload[-4:])[0]:08x}")
    print(f"# {name}: RoCEv2 (udp/4791) frames by transport + BTH opcode (count, opcode, name)")
    for key in sorted(counts, key=lambda k: k.split(" ", 1)[1]):
        print(f"{counts[key]:6d}  {key}")
    print("# retransmitted RoCEv2 frames (same src+destQP+opcode+PSN, or for MADs same src+TID+attribute, seen again)")
    print(f"{sum(c - 1 for c in seen.values()):6d}")
    print("# ICRC check (interop/roce_report.py)")
    for p in problems:
        print(p)
    print(f"{path}: {ok} RoCEv2 frames with valid ICRC, {bad} invalid")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]))
