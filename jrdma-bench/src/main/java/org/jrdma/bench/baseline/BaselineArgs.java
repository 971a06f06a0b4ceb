package org.jrdma.bench.baseline;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of a baseline process: a role ({@code server} or {@code client}) and
 * {@code --key value} pairs. The runner writes these lines; a person may too, so every
 * mistake is named.
 */
final class BaselineArgs {
    private final String role;
    private final Map<String, String> values;

    private BaselineArgs(String role, Map<String, String> values) {
        this.role = role;
        this.values = values;
    }

    static BaselineArgs parse(String[] args, Set<String> keys) {
        return parse(args, List.of("server", "client"), keys);
    }

    /** With other roles than server and client: a single-process baseline's is {@code local}. */
    static BaselineArgs parse(String[] args, List<String> roles, Set<String> keys) {
        if (args.length == 0 || !roles.contains(args[0])) {
            throw new IllegalArgumentException("first argument must be " + String.join(" or ", roles) + "; keys: --"
                    + String.join(" --", keys));
        }
        Map<String, String> values = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || !keys.contains(a.substring(2))) {
                throw new IllegalArgumentException("unknown argument " + a + "; keys: --" + String.join(" --", keys));
            }
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            values.put(a.substring(2), args[++i]);
        }
        return new BaselineArgs(args[0], values);
    }

    boolean isServer() {
        return role.equals("server");
    }

    boolean has(String key) {
        return values.containsKey(key);
    }

    String string(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    long nonNegativeLong(String key, long fallback) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(v);
            if (n < 0) {
                throw new IllegalArgumentException("--" + key + " must be >= 0, got " + v);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " is not an integer: " + v);
        }
    }

    /** {@code true} or {@code false}; the fallback when absent. */
    boolean bool(String key, boolean fallback) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        return switch (v) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("--" + key + " must be true or false, got " + v);
        };
    }

    int positiveInt(String key) {
        if (!values.containsKey(key)) {
            throw new IllegalArgumentException("--" + key + " is required");
        }
        long n = nonNegativeLong(key, 0);
        if (n == 0 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--" + key + " must be in 1.." + Integer.MAX_VALUE + ", got " + n);
        }
        return (int) n;
    }

    double nonNegativeSeconds(String key, double fallback) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            double d = Double.parseDouble(v);
            if (!(d >= 0) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("--" + key + " must be a finite number of seconds >= 0, got " + v);
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " is not a number: " + v);
        }
    }
}
