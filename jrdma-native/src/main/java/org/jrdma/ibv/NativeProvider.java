package org.jrdma.ibv;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.ibv.ffi.Ibv;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.spi.Provider;

/**
 * The native provider: every RDMA device libibverbs lists (mlx5, irdma, bnxt_re, efa, the
 * kernel's rxe and siw), driven through rdma-core's {@code libibverbs.so.1} with the FFM API.
 * Nothing native is built or shipped; the library is looked up by name at first use.
 *
 * <p>Unavailable (and {@link #devices()} empty, never throwing) when native access is not enabled,
 * the library is missing, or it lists no device; {@link #unavailabilityCause()} says which, in one
 * line naming the fix.
 */
public final class NativeProvider implements Provider {
    /** The provider's name, {@code native}, as {@link #name()} returns it. */
    public static final String NAME = "native";
    /** The JVM flag a class-path program needs. */
    public static final String NATIVE_ACCESS_FLAG = "--enable-native-access=ALL-UNNAMED";

    private static volatile Availability availability;

    private record Availability(String cause, List<Device> devices) {
    }

    /**
     * The provider, as ServiceLoader makes it; cheap: nothing is looked up until first use.
     */
    public NativeProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Device> devices() {
        return availability().devices();
    }

    @Override
    public boolean isAvailable() {
        return availability().cause() == null;
    }

    @Override
    public String unavailabilityCause() {
        return availability().cause();
    }

    /**
     * rdma-core's fork support, {@code ibv_is_fork_initialized()}: UNNEEDED when the kernel copies
     * pinned pages for the child at fork (Linux ≥ 5.13), so registered memory stays the parent's;
     * ENABLED after ibv_fork_init (madvise DONTFORK); DISABLED when neither holds — then a child
     * made by fork() (not posix_spawn, which ProcessBuilder uses on Linux) could take over pages
     * the NIC writes. "unknown" with an rdma-core older than 35. Null when unavailable.
     *
     * @return {@code UNNEEDED}, {@code ENABLED}, {@code DISABLED} or {@code unknown}; null when the
     *     provider is unavailable
     */
    public static String forkSupport() {
        if (!new NativeProvider().isAvailable()) {
            return null;
        }
        return switch (org.jrdma.ibv.ffi.IbvCalls.forkStatus()) {
            case 0 -> "DISABLED";
            case 1 -> "ENABLED";
            case 2 -> "UNNEEDED";
            default -> "unknown";
        };
    }

    private static Availability availability() {
        Availability a = availability;
        if (a == null) {
            synchronized (NativeProvider.class) {
                a = availability;
                if (a == null) {
                    a = probe();
                    availability = a;
                }
            }
        }
        return a;
    }

    /** The cause when native access is off, else null: checked before any restricted method runs. */
    static String nativeAccessCause(Module module) {
        if (module.isNativeAccessEnabled()) {
            return null;
        }
        String who = module.isNamed() ? "--enable-native-access=" + module.getName() : NATIVE_ACCESS_FLAG;
        return "native access is not enabled for jrdma-native: start java with " + who
                + (module.isNamed() ? "" : " (class path; on the module path name the module instead)");
    }

    private static Availability probe() {
        String cause = nativeAccessCause(NativeProvider.class.getModule());
        if (cause != null) {
            return new Availability(cause, List.of());
        }
        if (Ibv.loadFailure() != null) {
            return new Availability(Ibv.LIBRARY + " not found: install rdma-core's verbs library"
                    + " (Debian/Ubuntu: apt-get install libibverbs1 ibverbs-providers; Fedora/RHEL: dnf install"
                    + " libibverbs)", List.of());
        }
        List<IbvCalls.DeviceEntry> entries;
        try {
            entries = IbvCalls.deviceList();
        } catch (RuntimeException e) {
            return new Availability("libibverbs could not list RDMA devices: " + e.getMessage(), List.of());
        }
        if (entries.isEmpty()) {
            return new Availability("libibverbs found no RDMA device (no NIC driver loaded; for a software one:"
                    + " rdma link add rxe0 type rxe netdev eth0)", List.of());
        }
        List<Device> out = new ArrayList<>();
        for (IbvCalls.DeviceEntry e : entries) {
            out.add(new NativeDevice(e));
        }
        return new Availability(null, List.copyOf(out));
    }
}
