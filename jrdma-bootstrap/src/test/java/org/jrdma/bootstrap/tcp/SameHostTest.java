package org.jrdma.bootstrap.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whether an address is this host's, as the tools ask it of their peer's. */
class SameHostTest {
    @Test
    void loopbackAndTheWildcardAreThisHost() {
        for (String a : List.of("127.0.0.1", "127.3.4.5", "::1", "0.0.0.0", "::")) {
            assertThat(SameHost.isLocal(InetAddress.ofLiteral(a))).as(a).isTrue();
        }
    }

    @Test
    void everyInterfaceAddressIsThisHost() throws SocketException {
        List<InetAddress> mine = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(NetworkInterface::inetAddresses).toList();
        assertThat(mine).isNotEmpty();
        for (InetAddress a : mine) {
            assertThat(SameHost.isLocal(a)).as("%s", a).isTrue();
        }
    }

    @Test
    void anAddressNoInterfaceHasIsNotThisHost() throws SocketException {
        // TEST-NET-3 and the documentation prefix: never assigned, so never one of ours
        for (String a : List.of("203.0.113.77", "2001:db8::77")) {
            InetAddress address = InetAddress.ofLiteral(a);
            assertThat(NetworkInterface.getByInetAddress(address)).as("test host has %s", a).isNull();
            assertThat(SameHost.isLocal(address)).as(a).isFalse();
        }
    }

    @Test
    void aNameIsLocalOnlyWhenAllItsAddressesAre() {
        InetAddress lo = InetAddress.ofLiteral("127.0.0.1");
        InetAddress far = InetAddress.ofLiteral("203.0.113.77");
        assertThat(SameHost.allLocal(lo, InetAddress.ofLiteral("::1"))).isTrue();
        assertThat(SameHost.allLocal(lo, far)).isFalse();
        assertThat(SameHost.allLocal()).isFalse();
    }
}
