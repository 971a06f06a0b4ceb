package org.jrdma.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLException;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStoreProvider;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.jrdma.bootstrap.rendezvous.StoreUnavailableException;

/**
 * The etcd store's provider, found by {@link java.util.ServiceLoader} under scheme {@code etcd}:
 * {@code etcd://host:port[,host:port...]} in plain text, {@code etcds://...} with TLS (the CA and
 * client certificate of {@link StoreOptions}); {@link StoreOptions#user()} and its password for
 * etcd's auth. A port left out is etcd's 2379.
 */
public final class EtcdStoreProvider implements RendezvousStoreProvider {
    /** etcd's client port unless the URI names one. */
    public static final int DEFAULT_PORT = 2379;

    /** The provider, for {@link java.util.ServiceLoader}. */
    public EtcdStoreProvider() {
    }

    @Override
    public String scheme() {
        return "etcd";
    }

    @Override
    public RendezvousStore open(URI address, StoreOptions options) {
        String scheme = address.getScheme() == null ? "" : address.getScheme().toLowerCase(Locale.ROOT);
        boolean tls = switch (scheme) {
            case "etcd" -> false;
            case "etcds" -> true;
            default -> throw new IllegalArgumentException(address + " is not an etcd:// or etcds:// address");
        };
        if (!tls && (options.caCert() != null || options.clientCert() != null)) {
            throw new IllegalArgumentException("TLS options need an etcds:// address, not " + address);
        }
        List<String> endpoints = endpoints(address, tls ? "https://" : "http://");
        String name = scheme + "://" + String.join(",", endpoints.stream().map(e -> e.substring(e.indexOf("//") + 2)).toList());
        ClientBuilder b = Client.builder().endpoints(endpoints.toArray(String[]::new)).connectTimeout(options.requestTimeout())
                .waitForReady(false).retryMaxDuration(options.requestTimeout());
        if (options.user() != null) {
            b.user(ByteSequence.from(options.user(), StandardCharsets.UTF_8))
                    .password(ByteSequence.from(options.password(), StandardCharsets.UTF_8));
        }
        if (tls) {
            try {
                b.sslContext(ssl -> {
                    if (options.caCert() != null) {
                        ssl.trustManager(options.caCert().toFile());
                    }
                    if (options.clientCert() != null) {
                        ssl.keyManager(options.clientCert().toFile(), options.clientKey().toFile());
                    }
                });
            } catch (SSLException | RuntimeException e) {
                throw new StoreUnavailableException(name, "setting up TLS with " + options.caCert() + " and " + options.clientCert(), e);
            }
        }
        return new EtcdStore(name, b.build(), options);
    }

    /** {@code h:p,h:p} of the URI's authority as the client's endpoint URLs. */
    static List<String> endpoints(URI address, String urlScheme) {
        String authority = address.getRawAuthority();
        String path = address.getRawPath();
        if (authority == null || authority.isEmpty() || address.getRawUserInfo() != null
                || (path != null && !path.isEmpty() && !path.equals("/")) || address.getRawQuery() != null) {
            throw new IllegalArgumentException(address + " is not etcd://host:port[,host:port...] (credentials go in the options)");
        }
        List<String> out = new ArrayList<>();
        for (String hp : authority.split(",", -1)) {
            int close = hp.lastIndexOf(']');
            int colon = hp.lastIndexOf(':');
            String host = colon > close ? hp.substring(0, colon) : hp;
            String port = colon > close ? hp.substring(colon + 1) : Integer.toString(DEFAULT_PORT);
            if (host.isEmpty() || !port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535 || Integer.parseInt(port) == 0) {
                throw new IllegalArgumentException(address + ": " + hp + " is not host:port");
            }
            out.add(urlScheme + host + ":" + port);
        }
        return out;
    }
}
