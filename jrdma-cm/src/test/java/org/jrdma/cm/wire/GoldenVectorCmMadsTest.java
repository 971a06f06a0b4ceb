package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Golden vectors (issue 7 item 1): every CM MAD Linux rdma_cm sent over rxe in the conformance
 * captures — rping (5, rping-mads.hex, field by field in RpingMadsTest) and ib_write_bw -R
 * (10, write_bw_rdmacm-mads.hex) — decodes to the message its attribute names and encodes back
 * to the kernel's 256 bytes; the connection identifiers chain as the CM state machine requires,
 * and each REQ's CMA private data names the IPv4 addresses the frame travelled between.
 */
class GoldenVectorCmMadsTest {
    private static final Pattern COMMENT = Pattern.compile(
            "^# frame (\\d+): (\\w+) \\(attribute 0x([0-9a-f]{4})\\), (\\S+) -> (\\S+)$");

    record Captured(String file, int frame, String name, int attribute, String src, String dst, byte[] mad) {
    }

    static List<Captured> load(String file) throws IOException {
        List<Captured> out = new ArrayList<>();
        try (InputStream in = GoldenVectorCmMadsTest.class.getResourceAsStream(file)) {
            Matcher m = null;
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                Matcher c = COMMENT.matcher(line);
                if (c.matches()) {
                    m = c;
                } else if (!line.isBlank() && !line.startsWith("#")) {
                    out.add(new Captured(file, Integer.parseInt(m.group(1)), m.group(2), Integer.parseInt(m.group(3), 16),
                            m.group(4), m.group(5), HexFormat.of().parseHex(line.strip())));
                }
            }
        }
        return out;
    }

    @Test
    void everyCapturedMadDecodesAndReencodesByteForByte() throws Exception {
        int total = 0;
        StringBuilder report = new StringBuilder("golden vectors, CM MADs:\n");
        for (String file : List.of("rping-mads.hex", "write_bw_rdmacm-mads.hex")) {
            List<Captured> mads = load(file);
            Req req = null;
            Rep rep = null;
            List<String> names = new ArrayList<>();
            for (Captured c : mads) {
                String what = file + " frame " + c.frame();
                assertThat(c.mad()).as(what).hasSize(Mad.SIZE);
                CmMad cm = CmCodec.decode(c.mad(), 0, c.mad().length);
                assertThat(cm.message().attribute().id()).as(what).isEqualTo(c.attribute());
                assertThat(cm.message().getClass().getSimpleName().toUpperCase()).as(what).isEqualTo(c.name());
                ByteBuffer out = ByteBuffer.allocate(Mad.SIZE);
                CmCodec.encode(cm.header(), cm.message(), out);
                assertThat(out.array()).as(what).isEqualTo(c.mad());
                assertThat(CmCodec.encode(cm.header().transactionId(), cm.message())).as(what).isEqualTo(c.mad());
                switch (cm.message()) {
                    case Req r -> {
                        req = r;
                        CmaHeader cma = CmaHeader.decode(r.privateData());
                        assertThat(cma.source().getHostAddress()).as(what).isEqualTo(c.src());
                        assertThat(cma.destination().getHostAddress()).as(what).isEqualTo(c.dst());
                    }
                    case Rep r -> {
                        rep = r;
                        assertThat(r.remoteCommId()).as(what).isEqualTo(req.localCommId());
                    }
                    case Rtu r -> {
                        assertThat(r.localCommId()).as(what).isEqualTo(req.localCommId());
                        assertThat(r.remoteCommId()).as(what).isEqualTo(rep.localCommId());
                    }
                    default -> {
                    }
                }
                names.add(c.name() + "@" + c.frame() + (cm.message() instanceof Req r ? "(qpn 0x"
                        + Integer.toHexString(r.localQpn()) + ")" : cm.message() instanceof Rep r ? "(qpn 0x"
                        + Integer.toHexString(r.localQpn()) + ")" : ""));
                total++;
            }
            // The QPNs agree with the RC traffic of the same captures (rping.summary.txt frame 4:
            // 10.77.0.3 -> 10.77.0.2 QP=0x000021; write_bw_rdmacm.summary.txt frame 4: QP=0x000022,
            // frame 5: 10.77.0.2 -> 10.77.0.3 QP=0x00001d).
            assertThat(names).as(file).containsExactlyElementsOf(file.startsWith("rping")
                    ? List.of("REQ@1(qpn 0x1c)", "REP@2(qpn 0x21)", "RTU@3", "DREQ@40", "DREP@41")
                    : List.of("REQ@1(qpn 0x1d)", "REP@2(qpn 0x22)", "RTU@3", "REQ@24(qpn 0x1e)", "REP@25(qpn 0x23)",
                            "RTU@26", "DREQ@111", "DREP@112", "DREQ@113", "DREP@114"));
            report.append("  ").append(file).append(": ").append(names).append('\n');
        }
        assertThat(total).isEqualTo(15);
        System.out.print(report);
    }
}
