package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.jrdma.bootstrap.InvalidFieldException;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.bootstrap.MalformedMessageException;
import org.junit.jupiter.api.Test;

/**
 * The -R key message against ib_write_bw -R's own, captured between two rxe guests
 * (conformance/rxe/write_bw_rdmacm.pcap frames 31 and 107: the same message sent twice, with
 * different stack bytes in the padding).
 */
class KeyMessageBinaryTest {
    private static final String FRAME_31 = "00000000000000010000001e006b4e130000126600000000000055900fe17000"
            + "00000000000000000000ffff0a4d00030000000000000001";
    private static final String FRAME_107 = "00000000000000010000001e006b4e130000126690550000000055900fe17000"
            + "00000000000000000000ffff0a4d00030000000000000001";

    @Test
    void perftestsMessageDecodesAndEncodesByteForByte() {
        byte[] wire = HexFormat.of().parseHex(FRAME_31);
        KeyMessage m = KeyMessageBinary.decode(wire);
        assertThat(m.lid()).isZero();
        assertThat(m.outReads()).isEqualTo(1);
        assertThat(m.qpn()).isEqualTo(0x1e);
        assertThat(m.psn()).isEqualTo(0x6b4e13);
        assertThat(m.rkey()).isEqualTo(0x1266);
        assertThat(m.vaddr()).isEqualTo(0x55900fe17000L);
        assertThat(m.gid().toString()).isEqualTo("::ffff:10.77.0.3");
        assertThat(m.srqn()).isZero();
        assertThat(KeyMessageBinary.encode(m, 1)).isEqualTo(wire);
    }

    @Test
    void thePaddingIsIgnored() {
        assertThat(KeyMessageBinary.decode(HexFormat.of().parseHex(FRAME_107)))
                .isEqualTo(KeyMessageBinary.decode(HexFormat.of().parseHex(FRAME_31)));
    }

    @Test
    void aWrongLengthOrAnOutOfRangeFieldIsRefusedNamingIt() {
        assertThatThrownBy(() -> KeyMessageBinary.decode(new byte[55])).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("55 bytes, not 56");
        byte[] wire = HexFormat.of().parseHex(FRAME_31);
        wire[8] = 0x01; // qpn 0x0100001e: more than 24 bits
        assertThatThrownBy(() -> KeyMessageBinary.decode(wire)).isInstanceOf(InvalidFieldException.class)
                .hasMessageContaining("qpn");
    }
}
