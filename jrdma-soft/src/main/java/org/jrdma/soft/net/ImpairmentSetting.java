package org.jrdma.soft.net;

import java.io.PrintStream;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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
     * {@code inner} impaired, telling stderr the first time each device opens, so that a
     * failing run can be replayed with the printed text.
     */
    public static DatagramsFactory announced(String deviceName, Impairment impairment, DatagramsFactory inner) {
        DatagramsFactory impaired = ImpairedDatagrams.factory(impairment, inner);
        return local -> {
            announce(deviceName, impairment, System.err);
            return impaired.open(local);
        };
    }

    /** Prints the replay line once per device name and process; true when it printed. */
    static boolean announce(String deviceName, Impairment impairment, PrintStream out) {
        if (!ANNOUNCED.add(deviceName)) {
            return false;
        }
        out.println(line(deviceName, impairment));
        return true;
    }

    static String line(String deviceName, Impairment impairment) {
        return "jrdma-soft " + deviceName + ": impairing outgoing packets: " + impairment;
    }
}
