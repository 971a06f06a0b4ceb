package org.jrdma.bootstrap.tcp;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.junit.jupiter.api.Test;

/** The plain exchange names an authenticating peer instead of calling its hello a bad LID; it accepts nothing more. */
class PlainPeerCheckTest {
    private final Link.PrefixCheck check = PlainPeerCheck.of(PingpongTextCodec.INSTANCE);

    @Test
    void aPskHelloIsNamed() {
        byte[] hello = PskHandshake.hello(Handshake.Role.CLIENT, new byte[8], new byte[32]);
        assertThatThrownBy(() -> check.check(hello, hello.length)).isInstanceOf(MalformedMessageException.class)
                .hasMessageStartingWith("malformed protocol: the peer speaks jrdma-psk (it runs with --psk-file)");
    }

    @Test
    void aTlsRecordIsNamed() {
        byte[] clientHello = {0x16, 0x03, 0x01, 0x00, (byte) 0xf4, 0x01};
        assertThatThrownBy(() -> check.check(clientHello, clientHello.length)).hasMessageStartingWith("malformed protocol: the peer speaks TLS");
    }

    @Test
    void anythingElseIsTheCodecsRefusalAsBefore() {
        byte[] junk = "JRDMAPS".getBytes(java.nio.charset.StandardCharsets.US_ASCII); // too short to be sure
        assertThatThrownBy(() -> check.check(junk, junk.length)).hasMessageStartingWith("malformed lid: ");
    }
}
