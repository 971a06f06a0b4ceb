package org.jrdma.verbs;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.jrdma.verbs.spi.Provider;

/** Entry point: ibv_get_device_list over every provider on the class path. */
public final class Verbs {
    private Verbs() {
    }

    /** Every device of every provider, in provider order. */
    public static List<Device> deviceList() {
        List<Device> all = new ArrayList<>();
        for (Provider p : ServiceLoader.load(Provider.class)) {
            all.addAll(p.devices());
        }
        return List.copyOf(all);
    }

    /** The device named {@code name}, or the first device when {@code name} is null. */
    public static Device device(String name) {
        List<Device> all = deviceList();
        if (all.isEmpty()) {
            throw new VerbsException(Errno.ENODEV, "no RDMA devices found (is a provider such as jrdma-soft on the class path?)");
        }
        if (name == null) {
            return all.getFirst();
        }
        for (Device d : all) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        throw new VerbsException(Errno.ENODEV, "no RDMA device named '" + name + "'; devices: "
                + all.stream().map(Device::name).collect(Collectors.joining(", ")));
    }
}
