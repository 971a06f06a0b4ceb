package org.jrdma.verbs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.jrdma.verbs.spi.Provider;

/**
 * Whose devices {@link Verbs} offers: {@code JRDMA_PROVIDER=auto|soft|native|shm}, or the system
 * property {@code jrdma.provider}, which wins (as {@code jrdma.soft.devices} does for
 * {@code JRDMA_SOFT_DEVICES}; the tools' {@code --provider} sets it).
 * <ul>
 * <li>{@code auto}, the default: the native provider's devices when it is available and has
 * any, else the others' — soft's first and shm's last, whatever the class path's order, so
 * the first device (no {@code -d}) stays soft's — so a program written on soft runs unchanged on a
 * NIC, and a machine without one keeps working; {@link Choice#nativeNotInUse()} says why native
 * was passed over. {@link Choice#deviceFor(String, boolean)} picks shm's device instead for a peer
 * on this host.
 * <li>{@code soft}, {@code native} or {@code shm}: that provider's devices only; a provider that
 * is missing or unavailable fails typed (ENODEV) with its reason, never falls back to another.
 * </ul>
 * A provider whose {@code devices()} (or availability check) throws does not take the others
 * down: auto passes over it and says why, and only when no provider asked could answer does the
 * failure reach the caller.
 */
public final class ProviderChoice {
    /** The environment variable that sets the mode. */
    public static final String ENV = "JRDMA_PROVIDER";
    /** The system property that sets the mode; it wins over {@link #ENV}. */
    public static final String PROPERTY = "jrdma.provider";
    /** The soft provider's {@link Provider#name()}. */
    public static final String SOFT = "soft";
    /** The native provider's {@link Provider#name()}. */
    public static final String NATIVE = "native";
    /** The shared-memory provider's {@link Provider#name()} (jrdma-shm: processes on one host). */
    public static final String SHM = "shm";

    /** The four settings. */
    public enum Mode {
        /** Native's devices when it has any, else the other providers'. */
        AUTO,
        /** The soft provider's devices only. */
        SOFT,
        /** The native provider's devices only. */
        NATIVE,
        /** The shared-memory provider's devices only. */
        SHM;

        /**
         * Parses a setting.
         *
         * @param text  {@code auto}, {@code soft}, {@code native} or {@code shm} (any case, surrounding blanks
         *              ignored)
         * @param where the setting's name, for the error ({@code JRDMA_PROVIDER} or {@code jrdma.provider})
         * @return the mode
         * @throws VerbsException EINVAL for any other text
         */
        public static Mode parse(String text, String where) {
            for (Mode m : values()) {
                if (m.text().equalsIgnoreCase(text.strip())) {
                    return m;
                }
            }
            throw new VerbsException(Errno.EINVAL, where + "=" + text + ": unknown provider; use auto, soft, native or shm");
        }

        /** {@return the setting's text: {@code auto}, {@code soft}, {@code native} or {@code shm}} */
        public String text() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What the choice found.
     *
     * @param devices        the devices offered
     * @param nativeNotInUse why none of them is native's (one line), or null when they are
     * @param failures       providers passed over because they threw, as {@code name: message}
     * @param leftOut        whose devices auto left out beside native's, and how to get them; or null
     */
    public record Choice(List<Device> devices, String nativeNotInUse, List<String> failures, String leftOut) {
        /** Copies both lists, so that a choice is immutable. */
        public Choice {
            devices = List.copyOf(devices);
            failures = List.copyOf(failures);
        }

        /**
         * A choice with nothing left out.
         *
         * @param devices        the devices offered
         * @param nativeNotInUse why none of them is native's, or null when they are
         * @param failures       providers passed over because they threw
         */
        public Choice(List<Device> devices, String nativeNotInUse, List<String> failures) {
            this(devices, nativeNotInUse, failures, null);
        }

        /**
         * The device named {@code name}, or the first when {@code name} is null.
         *
         * @param name a device name, or null
         * @return that device
         * @throws VerbsException ENODEV, naming the devices there are and why others are missing
         */
        public Device device(String name) {
            if (devices.isEmpty()) {
                List<String> notes = notes();
                notes.add("is a provider such as jrdma-soft on the class path?");
                throw new VerbsException(Errno.ENODEV, "no RDMA devices found (" + String.join("; ", notes) + ")");
            }
            if (name == null) {
                return devices.getFirst();
            }
            for (Device d : devices) {
                if (d.name().equals(name)) {
                    return d;
                }
            }
            List<String> notes = notes();
            throw new VerbsException(Errno.ENODEV, "no RDMA device named '" + name + "'; devices: "
                    + devices.stream().map(Device::name).collect(Collectors.joining(", "))
                    + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")"));
        }

        /**
         * The device for a connection whose peer may be on this host: shm's when {@code name} is
         * null, the peer is on this host, shm offers a device and no device offered is native's —
         * which, of the settings, only auto can give (soft and native offer no shm device, shm
         * offers nothing else) — and otherwise exactly {@link #device(String)}. A NIC stays the
         * default for a local peer too: its loopback is what a program on it is measured on.
         *
         * @param name            a device name, or null for the choice's default
         * @param peerOnThisHost  whether the peer is known to be a process on this host
         * @return that device
         * @throws VerbsException ENODEV as {@link #device(String)}
         */
        public Device deviceFor(String name, boolean peerOnThisHost) {
            Device shm = name == null && peerOnThisHost ? localDevice() : null;
            return shm != null ? shm : device(name);
        }

        /** shm's first device when there is one and no native device beside it; else null. */
        private Device localDevice() {
            Device shm = null;
            for (Device d : devices) {
                if (NATIVE.equals(d.provider())) {
                    return null;
                }
                if (shm == null && SHM.equals(d.provider())) {
                    shm = d;
                }
            }
            return shm;
        }

        /** {@return {@code native: not in use: …}, or null when native's devices are the ones offered} */
        public String nativeLine() {
            return nativeNotInUse == null ? null : NATIVE + ": not in use: " + nativeNotInUse;
        }

        private List<String> notes() {
            List<String> notes = new ArrayList<>(failures);
            if (nativeNotInUse != null) {
                notes.addFirst(nativeLine());
            }
            if (leftOut != null) {
                notes.add(leftOut);
            }
            return notes;
        }
    }

    private final Mode mode;
    private final String setting;
    private final List<Provider> providers;
    private final List<String> unloadable;

    /**
     * A choice over the given providers (tests, tools that load providers themselves).
     *
     * @param mode      the setting
     * @param setting   where it came from, for messages ({@code JRDMA_PROVIDER=soft}); null for the default
     * @param providers the providers, in ServiceLoader order
     */
    public ProviderChoice(Mode mode, String setting, List<Provider> providers) {
        this(mode, setting, providers, List.of());
    }

    private ProviderChoice(Mode mode, String setting, List<Provider> providers, List<String> unloadable) {
        this.mode = mode;
        this.setting = setting;
        this.providers = List.copyOf(providers);
        this.unloadable = List.copyOf(unloadable);
    }

    /**
     * The setting of this process (property, else environment, else auto) over the providers on the class path.
     *
     * @return the choice, not yet made
     * @throws VerbsException EINVAL for a setting other than auto, soft, native or shm
     */
    public static ProviderChoice fromEnvironment() {
        String where = PROPERTY;
        String text = System.getProperty(PROPERTY);
        if (text == null || text.isBlank()) {
            where = ENV;
            text = System.getenv(ENV);
        }
        boolean set = text != null && !text.isBlank();
        Mode mode = set ? Mode.parse(text, where) : Mode.AUTO;
        return new ProviderChoice(mode, set ? where + "=" + text.strip() : null, Loaded.PROVIDERS, Loaded.UNLOADABLE);
    }

    /**
     * The providers on the class path, loaded once: a provider's availability is "cheap after
     * the first call" only for the same instance (the native one dlopens libibverbs to know).
     */
    private static final class Loaded {
        static final List<Provider> PROVIDERS = new ArrayList<>();
        static final List<String> UNLOADABLE = new ArrayList<>();

        static {
            // A provider whose class or constructor fails must not hide the others: after an
            // error the iterator goes on to the next (ServiceLoader's "best effort"), bounded
            // here in case it does not.
            Iterator<Provider> it = ServiceLoader.load(Provider.class).iterator();
            for (int errors = 0; errors < 16; ) {
                try {
                    if (!it.hasNext()) {
                        break;
                    }
                    PROVIDERS.add(it.next());
                } catch (ServiceConfigurationError e) {
                    errors++;
                    UNLOADABLE.add(describe(e) + (e.getCause() == null ? "" : ": " + describe(e.getCause())));
                }
            }
        }
    }

    /** {@return the mode in force} */
    public Mode mode() {
        return mode;
    }

    /**
     * {@return where the mode came from, as {@code JRDMA_PROVIDER=soft} or {@code jrdma.provider=soft}; null
     * for the default}
     */
    public String setting() {
        return setting;
    }

    /**
     * Asks the providers for their devices, as the mode says.
     *
     * @return the devices offered and why others were passed over
     * @throws VerbsException ENODEV when the provider the mode names is missing, unavailable or (native)
     *     has no device; in auto, the first provider's failure when every provider asked failed
     */
    public Choice choose() {
        return switch (mode) {
            case SOFT -> new Choice(only(SOFT).devices(), setting, List.of());
            case SHM -> new Choice(only(SHM).devices(), setting, List.of());
            case NATIVE -> new Choice(nativeDevices(), null, List.of());
            case AUTO -> auto();
        };
    }

    private List<Device> nativeDevices() {
        List<Device> devices = only(NATIVE).devices();
        if (devices.isEmpty()) { // an available provider should have said so; name the cause anyway
            throw new VerbsException(Errno.ENODEV, "the native provider found no RDMA device (" + setting + ")");
        }
        return devices;
    }

    private Choice auto() {
        String whyNot;
        Provider nat = named(NATIVE);
        if (nat == null) {
            whyNot = missing(NATIVE);
        } else {
            try {
                if (!nat.isAvailable()) {
                    whyNot = cause(nat);
                } else {
                    List<Device> devices = nat.devices();
                    if (!devices.isEmpty()) { // -d soft_lo on a host with a NIC must say where soft_lo went
                        return new Choice(devices, null, List.of(), leftOut());
                    }
                    whyNot = "the native provider found no RDMA device";
                }
            } catch (RuntimeException | LinkageError e) {
                whyNot = "the native provider failed: " + describe(e);
            }
        }
        List<Device> devices = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        RuntimeException first = null;
        int asked = 0;
        for (Provider p : others(nat)) {
            asked++;
            try {
                devices.addAll(p.devices());
            } catch (RuntimeException e) {
                failures.add(p.name() + ": " + describe(e));
                first = first == null ? e : first;
            }
        }
        if (asked > 0 && failures.size() == asked) {
            throw first; // every provider failed: nothing was broken by another, so say what failed
        }
        return new Choice(devices, whyNot, failures);
    }

    /**
     * The providers but {@code nat}: soft's first, shm's last, any other between in class-path
     * order — the first device offered is the default one, and it must not depend on the order
     * of jars.
     */
    private List<Provider> others(Provider nat) {
        List<Provider> others = new ArrayList<>();
        for (Provider p : providers) {
            if (p != nat) {
                others.add(p);
            }
        }
        others.sort(Comparator.comparingInt(p -> SOFT.equals(p.name()) ? 0 : SHM.equals(p.name()) ? 2 : 1));
        return others;
    }

    /** Where -d soft_lo or shm0 went on a host with a NIC (null when neither is on the class path). */
    private String leftOut() {
        List<String> ways = new ArrayList<>();
        for (String name : List.of(SOFT, SHM)) {
            if (named(name) != null) {
                ways.add("for " + name + "'s, JRDMA_PROVIDER=" + name + " (a tool's --provider " + name + ")");
            }
        }
        return ways.isEmpty() ? null : "auto offers native's devices while there are any; " + String.join("; ", ways);
    }

    /** The provider of that name, available: ENODEV naming why not otherwise. */
    private Provider only(String name) {
        Provider p = named(name);
        if (p == null) {
            throw new VerbsException(Errno.ENODEV, missing(name) + " (" + setting + "; add jrdma-" + name
                    + " to the class path, or choose " + otherModes(name) + ")");
        }
        if (!p.isAvailable()) {
            throw new VerbsException(Errno.ENODEV, cause(p));
        }
        return p;
    }

    /** The settings but {@code name}'s, as {@code auto, soft or native}. */
    private static String otherModes(String name) {
        List<String> others = new ArrayList<>();
        for (Mode m : Mode.values()) {
            if (!m.text().equals(name)) {
                others.add(m.text());
            }
        }
        return String.join(", ", others.subList(0, others.size() - 1)) + " or " + others.getLast();
    }

    /** Its unavailabilityCause(), never null: a null would read as "native is in use". */
    private static String cause(Provider p) {
        String cause = p.unavailabilityCause();
        return cause != null ? cause : "the " + p.name() + " provider is unavailable and gives no cause";
    }

    private Provider named(String name) {
        return providers.stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
    }

    private String missing(String name) {
        return "no provider named " + name + " on the class path"
                + (unloadable.isEmpty() ? "" : " (" + String.join("; ", unloadable) + ")");
    }

    private static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
