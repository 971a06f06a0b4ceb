package org.jrdma.tools.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.ProviderChoice;
import org.jrdma.verbs.ProviderChoice.Mode;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.Provider;
import org.junit.jupiter.api.Test;

/**
 * The rule pingpong and perf pick their device by, on providers made here: in auto with no -d
 * and no NIC, a peer on this host gets shm's device, any other peer soft's; otherwise the peer
 * does not matter. Both sides ask the same (client: the server's address; server: the client's).
 */
class PeerDeviceTest {
    private static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    /** TEST-NET-3: never this host's. */
    private static final InetAddress FAR = InetAddress.ofLiteral("203.0.113.77");

    private final Provider soft = provider("soft", "soft_lo");
    private final Provider shm = provider("shm", "shm0");
    private final Provider nic = provider("native", "mlx5_0");

    @Test
    void aLocalPeerInAutoGetsShmOnBothSides() {
        ProviderChoice.Choice c = choose(Mode.AUTO, shm, soft);
        assertThat(PeerDevice.dependsOnPeer(c, null)).isTrue();

        PeerDevice client = PeerDevice.forServerAt(c, null, "127.0.0.1");
        assertThat(client.device().name()).isEqualTo("shm0");
        assertThat(client.why()).isEqualTo("provider shm, device shm0: the server 127.0.0.1 is on this host"
                + " (--provider auto, no -d; -d or --provider to choose)");
        PeerDevice server = PeerDevice.forClientFrom(c, null, LOOPBACK);
        assertThat(server.device().name()).isEqualTo("shm0");
        assertThat(server.why()).startsWith("provider shm, device shm0: the client 127.0.0.1 is on this host");
        assertThat(PeerDevice.forServerAt(c, null, "::1").device().name()).isEqualTo("shm0");
    }

    @Test
    void aRemotePeerInAutoKeepsSoftAndSaysWhy() {
        ProviderChoice.Choice c = choose(Mode.AUTO, shm, soft);
        PeerDevice client = PeerDevice.forServerAt(c, null, "203.0.113.77");
        assertThat(client.device().name()).isEqualTo("soft_lo");
        assertThat(client.why()).startsWith("provider soft, device soft_lo: the server 203.0.113.77 is not on this host");
        assertThat(PeerDevice.forClientFrom(c, null, FAR).device().name()).isEqualTo("soft_lo");
        assertThat(PeerDevice.forClientFrom(c, null, null).device().name()).as("unknown counts as remote").isEqualTo("soft_lo");
        // a host with a port is not resolved, and not taken for this host
        assertThat(PeerDevice.forServerAt(c, null, "127.0.0.1:18515").device().name()).isEqualTo("soft_lo");
    }

    @Test
    void aNamedDeviceANicOrAnotherSettingMakesThePeerIrrelevant() {
        ProviderChoice.Choice auto = choose(Mode.AUTO, shm, soft);
        assertThat(PeerDevice.dependsOnPeer(auto, "soft_lo")).isFalse();
        assertThat(PeerDevice.forServerAt(auto, "soft_lo", "127.0.0.1")).isEqualTo(new PeerDevice(auto.device("soft_lo"), null));
        assertThat(PeerDevice.forClientFrom(auto, "shm0", FAR).device().name()).isEqualTo("shm0");

        ProviderChoice.Choice withNic = choose(Mode.AUTO, shm, soft, nic);
        assertThat(PeerDevice.dependsOnPeer(withNic, null)).isFalse();
        assertThat(PeerDevice.forServerAt(withNic, null, "127.0.0.1")).isEqualTo(new PeerDevice(withNic.device(null), null));

        ProviderChoice.Choice softOnly = choose(Mode.SOFT, shm, soft);
        assertThat(PeerDevice.forClientFrom(softOnly, null, LOOPBACK).device().name()).isEqualTo("soft_lo");
        ProviderChoice.Choice shmOnly = choose(Mode.SHM, shm, soft);
        assertThat(PeerDevice.forClientFrom(shmOnly, null, FAR).device().name()).isEqualTo("shm0");
        assertThat(PeerDevice.dependsOnPeer(choose(Mode.AUTO, soft), null)).isFalse();
        assertThat(PeerDevice.dependsOnPeer(choose(Mode.AUTO), null)).as("no device: fails later, as before").isFalse();
    }

    private static ProviderChoice.Choice choose(Mode mode, Provider... providers) {
        return new ProviderChoice(mode, mode == Mode.AUTO ? null : "--provider=" + mode.text(), List.of(providers)).choose();
    }

    private static Provider provider(String name, String device) {
        Device d = new Device() {
            @Override
            public String name() {
                return device;
            }

            @Override
            public String provider() {
                return name;
            }

            @Override
            public long guid() {
                return 1;
            }

            @Override
            public String description() {
                return "made by PeerDeviceTest";
            }

            @Override
            public Context open() {
                throw VerbsException.unsupported("open");
            }
        };
        return new Provider() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<Device> devices() {
                return List.of(d);
            }
        };
    }
}
