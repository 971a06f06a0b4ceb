package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Soft devices of a test class's own, each on a free loopback address ({@link FreeLoopback}),
 * set as the soft provider's only devices while the class's tests run and forgotten after them:
 * {@code @RegisterExtension static final OwnDevices DEVICES = new OwnDevices("durs", "durc");}.
 * A server and a client on two devices have an engine and a device thread each, as two
 * processes have; on one device, one engine serves both QPs. {@link #perTest} gives each test a
 * device of a fresh name instead (the connection manager remembers a device's address by its
 * name for the life of the process).
 */
public final class OwnDevices implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private static final AtomicInteger SEQ = new AtomicInteger();
    private final List<String> given;
    private final String perTestPrefix;
    private final List<String> names = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();

    public OwnDevices(String... names) {
        this(List.of(names), null);
    }

    private OwnDevices(List<String> names, String perTestPrefix) {
        this.given = names;
        this.perTestPrefix = perTestPrefix;
    }

    /** One device for each test, named {@code prefix} and a number: {@code @RegisterExtension final OwnDevices device = …}. */
    public static OwnDevices perTest(String prefix) {
        return new OwnDevices(List.of(), prefix);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (perTestPrefix == null) {
            own(given);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (perTestPrefix != null) {
            own(List.of(perTestPrefix + SEQ.incrementAndGet()));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (perTestPrefix != null) {
            forget();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (perTestPrefix == null) {
            forget();
        }
    }

    private void own(List<String> wanted) throws Exception {
        List<String> specs = new ArrayList<>();
        for (String name : wanted) {
            String spec = FreeLoopback.deviceSpec(name);
            names.add(name);
            addresses.add(spec.substring(spec.indexOf('=') + 1));
            specs.add(spec);
        }
        System.setProperty(SoftDeviceDiscovery.PROPERTY, String.join(",", specs));
    }

    private void forget() {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
        names.clear();
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
