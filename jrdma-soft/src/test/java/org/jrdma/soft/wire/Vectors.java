package org.jrdma.soft.wire;

/**
 * The ICRC examples of ROCEV2-FACTS §1.9, as whole IPv4 packets (no Ethernet header). The UDP
 * payload starts at byte 28.
 */
final class Vectors {
    static final int UDP_PAYLOAD = 28;

    /** (a) CNP captured on a ConnectX-4 Lx: IPv4 ID 0x718c, DF. */
    static final String CNP_CONNECTX = """
            45c2003c718c400040119161 0a001101 0a001201
            000012b700280000
            8100ffff400001180000 0000
            00000000000000000000000000000000
            82fd002a""";

    /** (b) scapy's UC SEND_ONLY regression packet: ID 1144, DF, TOS 1, UDP checksum 0xaca2. */
    static final String SCAPY_UC_SEND_ONLY = """
            45010040047840004011b4d5 c0a80007 c0a80007
            c00012b7002caca2
            2460ffff000000d300cf1710
            4630818be28935d90e9a95505401be885e500000
            78f353f3""";

    /** (c) RC SEND_ONLY "hello" + 3 pad, 192.168.1.1 → .2, ID 0, DF, sport 0xC123. */
    static final String RC_SEND_ONLY = """
            45000034000040004011b765 c0a80101 c0a80102
            c12312b700200000
            0430ffff0000001280000100
            68656c6c6f000000
            2739208a""";

    /** (d) RC ACKNOWLEDGE, syndrome 0x1F, MSN 1, 192.168.1.2 → .1, ID 0, DF, sport 0xC456. */
    static final String RC_ACK = """
            45000030000040004011b769 c0a80102 c0a80101
            c45612b7001c0000
            1100ffff0000003400000100
            1f000001
            be266c8b""";

    private Vectors() {
    }
}
