package org.jrdma.tools.perf;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.jrdma.bootstrap.MalformedMessageException;
import org.junit.jupiter.api.Test;

/** The 16-byte version exchange and its gates. */
class PeerVersionTest {
    static byte[] padded(String v) {
        return Arrays.copyOf(v.getBytes(US_ASCII), PeerVersion.BYTES);
    }

    @Test
    void weClaim606PaddedWithNuls() {
        assertThat(PeerVersion.encodeOurs()).isEqualTo(padded("6.06"));
        PeerVersion ours = PeerVersion.decode(PeerVersion.encodeOurs());
        assertThat(ours.atLeast(PeerVersion.OLDEST)).isTrue();
        assertThat(ours.atLeast(PeerVersion.NEGOTIATION)).as("a perftest ≥ 6.28 must skip the negotiation").isFalse();
        assertThat(ours.atLeast(PeerVersion.ITERS_EIGHT_BYTES)).isTrue();
        assertThat(ours.atLeast(PeerVersion.SYS_DATA)).isTrue();
        assertThat(ours.atLeast(PeerVersion.MTU_TWO_BYTES)).isTrue();
    }

    @Test
    void versionsReadAsAtofDoes() {
        assertThat(PeerVersion.decode(padded("6.29")).number()).isEqualTo(6.29);
        assertThat(PeerVersion.decode(padded("5.70")).number()).isEqualTo(5.7);
        assertThat(PeerVersion.decode(padded("24.10.0-0.66")).number()).isEqualTo(24.10);
        assertThat(PeerVersion.decode(padded("6")).number()).isEqualTo(6.0);
        assertThat(PeerVersion.decode("1234567890.12345".getBytes(US_ASCII)).text()).hasSize(16); // no NUL at all
    }

    @Test
    void olderThan570IsRefusedAsPerftestDoes() {
        PeerVersion old = PeerVersion.decode(padded("5.5"));
        assertThatThrownBy(old::requireCompatible).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("the peer is perftest \"5.5\"; this exchange speaks to 5.70 and newer");
        PeerVersion.decode(padded("5.70")).requireCompatible();
    }

    @Test
    void malformedVersionsNameTheField() {
        for (byte[] bad : new byte[][] {padded(""), padded("v6.29"), padded(" 6.29"), padded("6.\n29"),
                new byte[] {'6', '.', '2', 0, 'x', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, new byte[15]}) {
            assertThatThrownBy(() -> PeerVersion.decode(bad)).isInstanceOf(MalformedMessageException.class)
                    .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo("version"));
        }
    }

    /** A space is printable: it is refused because a version is one word, and the message says that. */
    @Test
    void whatIsNotAVersionIsNamedForWhatItIs() {
        assertThatThrownBy(() -> PeerVersion.decode(padded("6.06 beta"))).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("a space at offset 4 in \"6.06 beta")
                .hasMessageContaining("a version is one word, such as \"6.06\"").hasMessageNotContaining("printable");
        assertThatThrownBy(() -> PeerVersion.decode(padded("6.\n29"))).hasMessageContaining("'\\x0a' at offset 2 is not printable ASCII");
        assertThatThrownBy(() -> PeerVersion.decode(Arrays.copyOf(new byte[] {'6', '.', '2', (byte) 0xE9}, PeerVersion.BYTES)))
                .hasMessageContaining("'\\xe9' at offset 3 is not printable ASCII");
        assertThatThrownBy(() -> PeerVersion.decode("GET / HTTP/1.1\r\n".getBytes(US_ASCII)))
                .hasMessageContaining("\"GET / HTTP/1.1\\x0d\\x0a\" does not start with a version number");
        assertThatThrownBy(() -> PeerVersion.decode(padded(" 6.29"))).hasMessageContaining("does not start with a version number");
    }
}
