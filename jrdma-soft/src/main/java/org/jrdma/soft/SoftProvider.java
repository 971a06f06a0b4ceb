package org.jrdma.soft;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.spi.Provider;

/** The soft RoCEv2 provider: one device per configured or discovered local address. */
public final class SoftProvider implements Provider {
    public static final String NAME = "soft";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Device> devices() {
        List<Device> devices = new ArrayList<>();
        for (SoftDeviceSpec spec : SoftDeviceDiscovery.discover()) {
            devices.add(new SoftDevice(spec));
        }
        return devices;
    }
}
