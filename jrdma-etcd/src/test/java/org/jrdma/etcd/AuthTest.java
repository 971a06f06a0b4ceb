package org.jrdma.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStores;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.jrdma.bootstrap.rendezvous.StoreUnavailableException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** etcd's user/password auth: a user whose role may read and write /jrdma/ only. */
class AuthTest {
    private static final StoreOptions OPTIONS = StoreOptions.DEFAULTS.withRequestTimeout(Duration.ofSeconds(3));
    private static EtcdServer etcd;

    @BeforeAll
    static void start() throws Exception {
        etcd = EtcdServer.start();
        etcd.enableAuth("root-secret", "ranks", "ranks-secret");
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    private static RendezvousStore open(StoreOptions options) {
        return RendezvousStores.open(URI.create(etcd.endpoint()), options);
    }

    @Test
    void theRightPasswordWorks() {
        try (RendezvousStore store = open(OPTIONS.withAuth("ranks", "ranks-secret"));
                Rendezvous r0 = store.join(new RendezvousSpec("auth", 0, 2, Duration.ofSeconds(20)));
                Rendezvous r1 = store.join(new RendezvousSpec("auth", 1, 2, Duration.ofSeconds(20)))) {
            r0.publish(Ranks.forPeers(1, 0, 2));
            r1.publish(Ranks.forPeers(1, 1, 2));
            assertThat(r0.await()).containsExactlyEntriesOf(Ranks.expectedFor(1, 0, 2));
        }
    }

    @Test
    void aWrongPasswordFailsWithAClearError() {
        assertThatThrownBy(() -> open(OPTIONS.withAuth("ranks", "wrong")))
                .isInstanceOfSatisfying(StoreUnavailableException.class, e -> assertThat(e.getMessage())
                        .contains(etcd.endpoint(), "connecting", "authentication failed"));
    }

    @Test
    void noCredentialsFail() {
        assertThatThrownBy(() -> open(OPTIONS)).isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("user name is empty");
    }
}
