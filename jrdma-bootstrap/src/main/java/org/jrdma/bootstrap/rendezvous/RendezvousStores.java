package org.jrdma.bootstrap.rendezvous;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/** Opens a store by its URI's scheme, with the providers {@link ServiceLoader} finds. */
public final class RendezvousStores {
    private RendezvousStores() {
    }

    /**
     * Opens the store at an address.
     *
     * @param address {@code etcd://host:port[,host:port...]}, {@code etcds://...} for TLS, or
     *     {@code file:///path}
     * @param options security and timing
     * @return the open store
     * @throws IllegalArgumentException if no provider on the class path or module path opens the
     *     scheme (the message lists the ones that do)
     * @throws RendezvousException if the store cannot be reached
     */
    public static RendezvousStore open(URI address, StoreOptions options) {
        String scheme = address.getScheme() == null ? "" : address.getScheme().toLowerCase(Locale.ROOT);
        String base = scheme.endsWith("s") && !scheme.equals("file") ? scheme.substring(0, scheme.length() - 1) : scheme;
        List<String> known = new ArrayList<>();
        for (RendezvousStoreProvider p : ServiceLoader.load(RendezvousStoreProvider.class)) {
            if (p.scheme().equals(scheme) || p.scheme().equals(base)) {
                return p.open(address, options);
            }
            known.add(p.scheme());
        }
        String hint = base.equals("etcd") ? ": put jrdma-etcd and its dependencies on the class path (./jrdma does it for mesh)" : "";
        throw new IllegalArgumentException("no rendezvous store opens " + address + " (stores found: "
                + (known.isEmpty() ? "none" : String.join(", ", known)) + ")" + hint);
    }
}
