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

/** etcds://: a server certificate of a throwaway CA, and mutual TLS. */
class TlsTest {
    private static final StoreOptions OPTIONS = StoreOptions.DEFAULTS.withRequestTimeout(Duration.ofSeconds(3));
    private static EtcdServer etcd;

    @BeforeAll
    static void start() throws Exception {
        etcd = EtcdServer.startTls();
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @Test
    void mutualTlsWorks() {
        TestCerts c = etcd.certs();
        try (RendezvousStore store = RendezvousStores.open(URI.create(etcd.endpoint()), OPTIONS.withTls(c.ca(), c.clientCert(), c.clientKey()));
                Rendezvous r0 = store.join(new RendezvousSpec("tls", 0, 2, Duration.ofSeconds(20)));
                Rendezvous r1 = store.join(new RendezvousSpec("tls", 1, 2, Duration.ofSeconds(20)))) {
            assertThat(store.address()).startsWith("etcds://");
            r0.publish(Ranks.forPeers(1, 0, 2));
            r1.publish(Ranks.forPeers(1, 1, 2));
            assertThat(r1.await()).containsExactlyEntriesOf(Ranks.expectedFor(1, 1, 2));
        }
    }

    @Test
    void withoutAClientCertificateTheStoreRefuses() {
        TestCerts c = etcd.certs();
        assertThatThrownBy(() -> RendezvousStores.open(URI.create(etcd.endpoint()), OPTIONS.withTls(c.ca(), null, null)))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("connecting").hasMessageContaining("bad_certificate");
    }

    @Test
    void aServerOfAnotherCaIsNotTrusted() {
        // the JDK's trust store does not know the throwaway CA
        TestCerts c = etcd.certs();
        assertThatThrownBy(() -> RendezvousStores.open(URI.create(etcd.endpoint()), OPTIONS.withTls(null, c.clientCert(), c.clientKey())))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("connecting").hasMessageContaining("certification path");
    }
}
