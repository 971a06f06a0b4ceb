package org.jrdma.verbs;

import java.util.List;

/**
 * Entry point: ibv_get_device_list over the providers on the class path, as
 * {@link ProviderChoice} ({@code JRDMA_PROVIDER=auto|soft|native|shm}) picks them.
 */
public final class Verbs {
    private Verbs() {
    }

    /**
     * The devices of the chosen provider (auto: native's when there are any, else soft's, then shm's).
     *
     * @return the devices, possibly empty
     * @throws VerbsException EINVAL for a bad provider setting; ENODEV when the provider asked for is missing
     */
    public static List<Device> deviceList() {
        return ProviderChoice.fromEnvironment().choose().devices();
    }

    /**
     * The device named {@code name}, or the first device when {@code name} is null.
     *
     * @param name a device name, as {@link Device#name()} gives it, or null
     * @return that device
     * @throws VerbsException ENODEV when there is no such device (the message lists those there are)
     */
    public static Device device(String name) {
        return ProviderChoice.fromEnvironment().choose().device(name);
    }
}
