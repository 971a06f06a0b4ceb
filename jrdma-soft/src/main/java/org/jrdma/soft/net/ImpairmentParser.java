package org.jrdma.soft.net;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads and writes {@link Impairment}'s text form. Strict on purpose: a chaos run with a
 * mistyped knob would otherwise pass while testing nothing, so every malformed, unknown,
 * repeated or out-of-range item fails and the message names its key.
 */
final class ImpairmentParser {
    private static final List<String> KEYS = List.of("loss", "burst", "reorder", "dup", "corrupt", "delay", "seed");
    /** Plain decimals with an optional exponent; no sign (checked as a range), NaN, hex or 'd' suffix. */
    private static final Pattern NUMBER = Pattern.compile("-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d{1,3})?");
    private static final Pattern TIME = Pattern.compile("(-?(?:\\d+\\.?\\d*|\\.\\d+))(us|ms|s)");
    private static final Pattern INTEGER = Pattern.compile("-?\\d{1,19}");

    private ImpairmentParser() {
    }

    static Impairment parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("impairment: empty; expected items like loss=1%,seed=42 (keys: "
                    + String.join(", ", KEYS) + ")");
        }
        Map<String, String> items = items(text);
        double loss = items.containsKey("loss") ? probability(text, "loss", items.get("loss")) : 0;
        Impairment.Burst burst = items.containsKey("burst") ? burst(text, items.get("burst")) : Impairment.Burst.OFF;

        double reorder = 0;
        int gap = Impairment.DEFAULT_REORDER_GAP;
        long hold = Impairment.DEFAULT_REORDER_HOLD_MICROS;
        if (items.containsKey("reorder")) {
            Map<String, String> sub = subItems(text, "reorder", items.get("reorder"), true, List.of("gap", "hold"));
            reorder = probability(text, "reorder", sub.get(""));
            if (sub.containsKey("gap")) {
                gap = gap(text, sub.get("gap"));
            }
            if (sub.containsKey("hold")) {
                hold = micros(text, "reorder hold", sub.get("hold"));
            }
        }
        double dup = items.containsKey("dup") ? probability(text, "dup", items.get("dup")) : 0;
        double corrupt = items.containsKey("corrupt") ? probability(text, "corrupt", items.get("corrupt")) : 0;

        long delay = 0;
        long jitter = 0;
        if (items.containsKey("delay")) {
            Map<String, String> sub = subItems(text, "delay", items.get("delay"), true, List.of("jitter"));
            delay = micros(text, "delay", sub.get(""));
            if (sub.containsKey("jitter")) {
                jitter = micros(text, "delay jitter", sub.get("jitter"));
            }
            if (jitter > delay) {
                throw bad(text, "delay", "jitter " + sub.get("jitter") + " exceeds the delay " + sub.get("")
                        + " (a packet cannot leave before it is sent)");
            }
        }
        long seed = items.containsKey("seed") ? seed(text, items.get("seed")) : Impairment.randomSeed();
        try {
            return new Impairment(loss, burst, reorder, gap, hold, dup, corrupt, delay, jitter, seed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("impairment '" + text + "': " + e.getMessage(), e);
        }
    }

    private static Map<String, String> items(String text) {
        Map<String, String> items = new LinkedHashMap<>();
        for (String raw : text.split(",", -1)) {
            String item = raw.strip();
            if (item.isEmpty()) {
                throw new IllegalArgumentException("impairment '" + text + "': empty item (two commas, or a comma at an end)");
            }
            int eq = item.indexOf('=');
            if (eq < 0) {
                throw bad(text, item, "expected " + item + "=VALUE");
            }
            String key = item.substring(0, eq).strip();
            String value = item.substring(eq + 1).strip();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("impairment '" + text + "': item '" + item + "' has no key");
            }
            if (!KEYS.contains(key)) {
                throw bad(text, key, "unknown key (known: " + String.join(", ", KEYS) + ")");
            }
            if (value.isEmpty()) {
                throw bad(text, key, "no value");
            }
            if (items.put(key, value) != null) {
                throw bad(text, key, "given twice");
            }
        }
        return items;
    }

    /**
     * Splits {@code VALUE[/name:v…]}; the leading positional value, when allowed, is stored
     * under "". Names must be in {@code allowed} and appear once.
     */
    private static Map<String, String> subItems(String text, String key, String value, boolean positional,
            List<String> allowed) {
        Map<String, String> sub = new LinkedHashMap<>();
        String[] parts = value.split("/", -1);
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].strip();
            if (i == 0 && positional) {
                sub.put("", part);
                continue;
            }
            int colon = part.indexOf(':');
            String name = colon < 0 ? part : part.substring(0, colon).strip();
            if (colon < 0 || !allowed.contains(name)) {
                throw bad(text, key, "'" + part + "' is not one of " + String.join(", ", allowed.stream().map(a -> a + ":VALUE").toList()));
            }
            String v = part.substring(colon + 1).strip();
            if (v.isEmpty()) {
                throw bad(text, key, name + " has no value");
            }
            if (sub.put(name, v) != null) {
                throw bad(text, key, name + " given twice");
            }
        }
        return sub;
    }

    private static Impairment.Burst burst(String text, String value) {
        Map<String, String> sub = subItems(text, "burst", value, false, List.of("p", "r", "h", "k"));
        for (String required : List.of("p", "r")) {
            if (!sub.containsKey(required)) {
                throw bad(text, "burst", "missing " + required + ": (burst=p:P(good→bad)/r:P(bad→good)[/h:P(delivered|bad)][/k:P(delivered|good)])");
            }
        }
        return new Impairment.Burst(
                probability(text, "burst p", sub.get("p")),
                probability(text, "burst r", sub.get("r")),
                sub.containsKey("h") ? probability(text, "burst h", sub.get("h")) : 0,
                sub.containsKey("k") ? probability(text, "burst k", sub.get("k")) : 1);
    }

    /** {@code 0.01} or {@code 1%}, exactly: the decimal is rounded to a double once. */
    static double probability(String text, String key, String value) {
        boolean percent = value.endsWith("%");
        String number = percent ? value.substring(0, value.length() - 1) : value;
        if (!NUMBER.matcher(number).matches()) {
            throw bad(text, key, "'" + value + "' is not a probability (write 0.01 or 1%)");
        }
        BigDecimal p = new BigDecimal(number);
        if (percent) {
            p = p.movePointLeft(2);
        }
        if (p.signum() < 0 || p.compareTo(BigDecimal.ONE) > 0) {
            throw bad(text, key, "probability " + value + " is outside [0, 1] (0%..100%)");
        }
        return p.doubleValue();
    }

    private static long micros(String text, String key, String value) {
        var m = TIME.matcher(value);
        if (!m.matches()) {
            throw bad(text, key, "'" + value + "' is not a time (write 100us, 2ms or 1s)");
        }
        BigDecimal t = new BigDecimal(m.group(1));
        t = switch (m.group(2)) {
            case "ms" -> t.movePointRight(3);
            case "s" -> t.movePointRight(6);
            default -> t;
        };
        if (t.signum() < 0) {
            throw bad(text, key, "'" + value + "' is negative");
        }
        if (t.stripTrailingZeros().scale() > 0) {
            throw bad(text, key, "'" + value + "' is not a whole number of microseconds");
        }
        if (t.compareTo(BigDecimal.valueOf(Impairment.MAX_DELAY_MICROS)) > 0) {
            throw bad(text, key, "'" + value + "' is longer than " + time(Impairment.MAX_DELAY_MICROS));
        }
        return t.longValueExact();
    }

    private static int gap(String text, String value) {
        if (!Pattern.matches("-?\\d{1,9}", value)) {
            throw bad(text, "reorder", "gap '" + value + "' is not a whole number of packets");
        }
        long g = Long.parseLong(value);
        if (g < 1 || g > Impairment.MAX_REORDER_GAP) {
            throw bad(text, "reorder", "gap " + value + " is outside 1.." + Impairment.MAX_REORDER_GAP);
        }
        return (int) g;
    }

    private static long seed(String text, String value) {
        try {
            if (!INTEGER.matcher(value).matches()) {
                throw new NumberFormatException();
            }
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw bad(text, "seed", "'" + value + "' is not a 64-bit decimal integer");
        }
    }

    private static IllegalArgumentException bad(String text, String key, String problem) {
        return new IllegalArgumentException("impairment '" + text + "': " + key + ": " + problem);
    }

    // ---------------------------------------------------------------- writing

    /** A probability as a percentage that reads back as the same double ("1%", "0.001%"). */
    static String percent(double p) {
        return Impairment.exact(p).movePointRight(2).stripTrailingZeros().toPlainString() + "%";
    }

    /** A probability as a plain decimal that reads back as the same double ("0.3"). */
    static String decimal(double p) {
        return Impairment.exact(p).stripTrailingZeros().toPlainString();
    }

    static String time(long micros) {
        if (micros != 0 && micros % 1_000_000 == 0) {
            return micros / 1_000_000 + "s";
        }
        if (micros != 0 && micros % 1000 == 0) {
            return micros / 1000 + "ms";
        }
        return micros + "us";
    }
}
