package org.jrdma.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.jrdma.bootstrap.rendezvous.RendezvousStoreProvider;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.junit.jupiter.api.Test;

/** The provider's URIs and its registration; no etcd needed. */
class EtcdStoreProviderTest {
    @Test
    void isFoundByServiceLoaderUnderEtcd() {
        assertThat(ServiceLoader.load(RendezvousStoreProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p instanceof EtcdStoreProvider).map(RendezvousStoreProvider::scheme)).containsExactly("etcd");
    }

    @Test
    void endpointsAreTheAuthoritysHostsAndPorts() {
        assertThat(EtcdStoreProvider.endpoints(URI.create("etcd://10.0.0.1:2379,10.0.0.2:12379"), "http://"))
                .containsExactly("http://10.0.0.1:2379", "http://10.0.0.2:12379");
        assertThat(EtcdStoreProvider.endpoints(URI.create("etcds://store.example"), "https://"))
                .containsExactly("https://store.example:2379");
        assertThat(EtcdStoreProvider.endpoints(URI.create("etcd://[::1]:2380"), "http://")).containsExactly("http://[::1]:2380");
    }

    @Test
    void refusesWhatIsNotAnEtcdAddress() {
        EtcdStoreProvider p = new EtcdStoreProvider();
        assertThatThrownBy(() -> p.open(URI.create("file:///tmp/x"), StoreOptions.DEFAULTS)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.open(URI.create("etcd://h:2379/path"), StoreOptions.DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.open(URI.create("etcd://user:pw@h:2379"), StoreOptions.DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("options");
        assertThatThrownBy(() -> p.open(URI.create("etcd://h:99999"), StoreOptions.DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.open(URI.create("etcd://h:2379"), StoreOptions.DEFAULTS.withTls(Path.of("ca.pem"), null, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("etcds://");
    }
}
