package org.jrdma.soft.net;

import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The impairment a process asks for from outside: system property {@value #PROPERTY}, else
 * environment variable {@value #ENV}, e.g. {@code JRDMA_IMPAIR='loss=1%,seed=7'}.
 *
 * <p>The text is parsed once per process, so when it names no seed every device still gets
 * the same randomly chosen one and the printed line replays the whole run. Devices use the
 * seed as it is (not mixed with their name or address, which differ from run to run), so two
 * devices make the same decisions for their n-th packets; give a device its own seed through
 * {@code SoftOptions.impairment} when that matters.
 */
public final class ImpairmentSetting {
    public static final String ENV = "JRDMA_IMPAIR";
    public static final String PROPERTY = "jrdma.impair";

    private static final Map<String, Impairment> PARSED = new ConcurrentHashMap<>();
    private static final Set<String> ANNOUNCED = ConcurrentHashMap.newKeySet();
    private static final System.Logger LOG = System.getLogger(ImpairmentSetting.class.getName());

    private ImpairmentSetting() {
    }

    /**
     * The impairment the property or the environment asks for, or null when neither is set.
     *
     * @throws IllegalArgumentException when the text is malformed (the message says where it came from)
     */
    public static Impairment configured() {
        String source = "-D" + PROPERTY;
        String text = System.getProperty(PROPERTY);
        if (text == null || text.isBlank()) {
            source = ENV;
            text = System.getenv(ENV);
        }
        if (text == null || text.isBlank()) {
            return null;
        }
        String from = source;
        return PARSED.computeIfAbsent(text.strip(), t -> {
            try {
                return Impairment.parse(t);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(from + ": " + e.getMessage(), e);
            }
        });
    }

    /**
     * {@code inner} impaired, logging (INFO, logger {@code org.jrdma.soft.net.ImpairmentSetting};
     * the JDK's default backend prints it on stderr) the first time each device opens, so that
     * a failing run can be replayed with the logged text.
     */
    public static DatagramsFactory announced(String deviceName, Impairment impairment, DatagramsFactory inner) {
        DatagramsFactory impaired = ImpairedDatagrams.factory(impairment, inner);
        return local -> {
            announce(deviceName, impairment, line -> LOG.log(Level.INFO, line));
            return impaired.open(local);
        };
    }

    /** Hands {@code out} the replay line once per device name and process; true when it did. */
    static boolean announce(String deviceName, Impairment impairment, Consumer<String> out) {
        if (!ANNOUNCED.add(deviceName)) {
            return false;
        }
        out.accept(line(deviceName, impairment));
        return true;
    }

    static String line(String deviceName, Impairment impairment) {
        return "jrdma-soft " + deviceName + ": impairing outgoing packets: " + impairment;
    }
}
