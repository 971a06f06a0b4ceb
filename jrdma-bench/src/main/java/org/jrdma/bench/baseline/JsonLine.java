package org.jrdma.bench.baseline;

import java.math.BigDecimal;
import java.math.MathContext;

/** Builds the one-line JSON object a baseline process prints for the runner. */
public final class JsonLine {
    private final StringBuilder sb = new StringBuilder("{");

    public JsonLine put(String key, String value) {
        key(key).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
        return this;
    }

    public JsonLine put(String key, long value) {
        key(key).append(value);
        return this;
    }

    public JsonLine put(String key, boolean value) {
        key(key).append(value);
        return this;
    }

    /** Six significant digits; NaN and infinities (which JSON lacks) become null. */
    public JsonLine put(String key, double value) {
        key(key);
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            sb.append("null");
        } else {
            sb.append(BigDecimal.valueOf(value).round(new MathContext(6)).stripTrailingZeros().toPlainString());
        }
        return this;
    }

    private StringBuilder key(String key) {
        if (sb.length() > 1) {
            sb.append(',');
        }
        return sb.append('"').append(key).append("\":");
    }

    @Override
    public String toString() {
        return sb + "}";
    }
}
