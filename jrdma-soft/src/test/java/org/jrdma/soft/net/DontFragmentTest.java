package org.jrdma.soft.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import jdk.net.ExtendedSocketOptions;
import org.junit.jupiter.api.Test;

/**
 * Where jdk.net is there (always on the module path: org.jrdma.soft requires it) the soft
 * socket carries DF. Its absence (a class-path runtime image without jdk.net) is proved by
 * bin/release-check, which needs such an image.
 */
class DontFragmentTest {
    @Test
    void setsIpDontFragmentWhereJdkNetIsPresent() throws Exception {
        assertThat(DontFragment.JDK_NET).isTrue();
        try (DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET)) {
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            assertThat(DontFragment.set(ch)).isTrue();
            assertThat(ch.getOption(ExtendedSocketOptions.IP_DONTFRAGMENT)).isTrue();
        }
    }
}
