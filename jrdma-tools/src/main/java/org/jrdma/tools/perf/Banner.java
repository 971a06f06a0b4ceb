package org.jrdma.tools.perf;

import java.util.Locale;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpType;

/**
 * perftest's text around the results (ROCEV2-FACTS §6.4): the RESULT_LINE, the test banner of
 * {@code ctx_print_test_info}, and the per-QP address lines of {@code ctx_print_pingpong_data}.
 * Lines perftest prints for hardware features jrdma does not have (PCIe relaxed ordering, the
 * ibv_wr* API, DDP, lock-free) are left out.
 */
final class Banner {
    /** What perftest says when -l is given without -Q (after a RESULT_LINE, before anything else). */
    static final String POST_LIST_CQ_MOD = "Post List requested - CQ moderation will be the size of the post list";

    /** RESULT_LINE: 87 dashes. */
    static final String RESULT_LINE = "-".repeat(87);
    static final String WAITING = """

            ************************************
            * Waiting for client to connect... *
            ************************************""";
    static final String NO_PEAK_WARNING = " WARNING: BW peak won't be measured in this run.";

    private Banner() {
    }

    /** The title line: 20 spaces, the verb, the atomic type, "Bidirectional", "BW"/"Latency", "Test". */
    static String title(PerfConfig c) {
        StringBuilder sb = new StringBuilder(" ".repeat(20)).append(c.verb().bannerName()).append(' ');
        if (c.verb() == Verb.ATOMIC) {
            sb.append(c.atomicType().name()).append(' ');
        }
        if (c.test().isBandwidth()) {
            if (c.bidirectional()) {
                sb.append("Bidirectional ");
            }
            if (c.postList() > 1) {
                sb.append("Post List ");
            }
            sb.append("BW ");
        } else {
            sb.append("Latency ");
        }
        return sb.append("Test").toString();
    }

    /** ctx_print_test_info, RESULT_LINE to RESULT_LINE. */
    static String testInfo(PerfConfig c, String deviceName, Mtu mtu, int rxDepth, int cqMod, int inline) {
        StringBuilder sb = new StringBuilder();
        sb.append(RESULT_LINE).append('\n');
        sb.append(title(c)).append('\n');
        if (c.events()) {
            sb.append(" Test with events.\n");
        }
        sb.append(String.format(Locale.ROOT, " Dual-port       : %s\t\tDevice         : %s\n", "OFF", deviceName));
        sb.append(String.format(Locale.ROOT, " Number of qps   : %d\t\tTransport type : %s\n", c.qps(), "IB"));
        sb.append(String.format(Locale.ROOT, " Connection type : %s\t\tUsing SRQ      : %s\n", connection(c.connection()), "OFF"));
        if (!c.isServer() || c.bidirectional()) {
            sb.append(String.format(Locale.ROOT, " TX depth        : %d\n", c.txDepth()));
        }
        if (c.postList() > 1) {
            sb.append(String.format(Locale.ROOT, " Post List       : %d\n", c.postList()));
        }
        if (c.verb() == Verb.SEND && (c.isServer() || c.bidirectional())) {
            sb.append(String.format(Locale.ROOT, " RX depth        : %d\n", rxDepth));
        }
        if (c.test().isBandwidth()) {
            sb.append(String.format(Locale.ROOT, " CQ Moderation   : %d\n", cqMod));
        }
        sb.append(String.format(Locale.ROOT, " Mtu             : %d[B]\n", mtu.bytes()));
        sb.append(" Link type       : Ethernet\n");
        sb.append(String.format(Locale.ROOT, " GID index       : %d\n", c.gidIndex()));
        if (c.verb().usesReadResources()) {
            sb.append(String.format(Locale.ROOT, " Outstand reads  : %d\n", c.outReads()));
        } else {
            sb.append(String.format(Locale.ROOT, " Max inline data : %d[B]\n", inline));
        }
        sb.append(c.rdmaCm() ? " rdma_cm QPs\t : ON\n" : " rdma_cm QPs\t : OFF\n");
        sb.append(c.cmExchange() ? " Data ex. method : rdma_cm\n" : " Data ex. method : Ethernet\n");
        sb.append(RESULT_LINE);
        return sb.toString();
    }

    private static String connection(QpType type) {
        return switch (type) {
            case RC -> "RC";
            case UC -> "UC";
            case UD -> "UD";
            default -> type.name();
        };
    }

    /**
     * BASIC_ADDR_FMT {@code " %s address: LID %#04x QPN %#06x PSN %#06x"}, then for READ
     * {@code " OUT %#04x"}, then for READ and WRITE {@code " RKey %#08x VAddr %#016llx"}.
     */
    static String address(String side, KeyMessage m, Verb verb) {
        StringBuilder sb = new StringBuilder(" ").append(side).append(" address: LID ")
                .append(CFormat.alternateHex(m.lid(), 4))
                .append(" QPN ").append(CFormat.alternateHex(m.qpn(), 6))
                .append(" PSN ").append(CFormat.alternateHex(m.psn(), 6));
        if (verb == Verb.READ) {
            sb.append(" OUT ").append(CFormat.alternateHex(m.outReads(), 4));
        }
        if (verb == Verb.READ || verb == Verb.WRITE) {
            sb.append(" RKey ").append(CFormat.alternateHex(m.rkey(), 8))
                    .append(" VAddr ").append(CFormat.alternateHex(m.vaddr(), 16));
        }
        return sb.toString();
    }

    /** PERF_GID_FMT: {@code " GID: %02d:%02d:…"}, the 16 bytes in decimal. */
    static String gid(Gid gid) {
        StringBuilder sb = new StringBuilder(" GID: ");
        for (int i = 0; i < Gid.BYTES; i++) {
            if (i > 0) {
                sb.append(':');
            }
            int b = gid.byteAt(i) & 0xFF;
            if (b < 10) {
                sb.append('0');
            }
            sb.append(b);
        }
        return sb.toString();
    }
}
