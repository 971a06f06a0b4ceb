package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Soft devices of a test class's own, each on a free loopback address ({@link FreeLoopback}),
 * set as the soft provider's only devices while the class's tests run and forgotten after them:
 * {@code @RegisterExtension static final OwnDevices DEVICES = new OwnDevices("durs", "durc");}.
 * A server and a client on two devices have an engine and a device thread each, as two
 * processes have; on one device, one engine serves both QPs.
 */
public final class OwnDevices implements BeforeAllCallback, AfterAllCallback {
    private final List<String> names;
    private final List<String> addresses = new ArrayList<>();

    public OwnDevices(String... names) {
        this.names = List.of(names);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        List<String> specs = new ArrayList<>();
        for (String name : names) {
            String spec = FreeLoopback.deviceSpec(name);
            addresses.add(spec.substring(spec.indexOf('=') + 1));
            specs.add(spec);
        }
        System.setProperty(SoftDeviceDiscovery.PROPERTY, String.join(",", specs));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
        addresses.clear();
    }

    /** The first device's name (the only one, or the server's). */
    public String name() {
        return names.getFirst();
    }

    /** The first device's address, where its connection manager answers. */
    public String address() {
        return addresses.getFirst();
    }

    /** The address of device {@code i} (in the order given). */
    public String address(int i) {
        return addresses.get(i);
    }

    /** {@code name=address} of device {@code i}, for a child process's JRDMA_SOFT_DEVICES. */
    public String spec(int i) {
        return names.get(i) + "=" + addresses.get(i);
    }

    /** The server's device: the first. */
    public String server() {
        return names.get(0);
    }

    /** The client's device: the second. */
    public String client() {
        return names.get(1);
    }
}
