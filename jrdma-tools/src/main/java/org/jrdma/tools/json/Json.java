package org.jrdma.tools.json;

import java.util.Locale;
import java.util.Map;

/**
 * A tiny JSON writer for the tools' machine-readable output ({@code demo --json},
 * {@code perf --out_json}); the tools take no JSON library. Call order builds the document:
 * {@code begin().field("a", 1).beginArray("b").begin()…end().endArray().end()}.
 */
public final class Json {
    private final StringBuilder sb = new StringBuilder();
    private boolean needComma;

    public Json begin() {
        comma();
        sb.append('{');
        needComma = false;
        return this;
    }

    public Json end() {
        sb.append('}');
        needComma = true;
        return this;
    }

    public Json key(String k) {
        comma();
        string(k);
        sb.append(':');
        needComma = false;
        return this;
    }

    public Json field(String k, String v) {
        key(k);
        if (v == null) {
            sb.append("null");
        } else {
            string(v);
        }
        needComma = true;
        return this;
    }

    public Json field(String k, long v) {
        key(k).sb.append(v);
        needComma = true;
        return this;
    }

    /** Three decimals, the demo's convention. */
    public Json field(String k, double v) {
        return field(k, v, 3);
    }

    /** A number with {@code decimals} digits after the point; NaN and infinities become null (JSON has neither). */
    public Json field(String k, double v, int decimals) {
        key(k);
        if (Double.isFinite(v)) {
            sb.append(String.format(Locale.ROOT, "%." + decimals + "f", v));
        } else {
            sb.append("null");
        }
        needComma = true;
        return this;
    }

    public Json field(String k, boolean v) {
        key(k).sb.append(v);
        needComma = true;
        return this;
    }

    public Json map(String k, Map<String, Long> m) {
        key(k).begin();
        m.forEach(this::field);
        return end();
    }

    /** A string as an array element. */
    public Json element(String v) {
        comma();
        string(v);
        needComma = true;
        return this;
    }

    public Json beginArray(String k) {
        key(k).sb.append('[');
        needComma = false;
        return this;
    }

    public Json endArray() {
        sb.append(']');
        needComma = true;
        return this;
    }

    private void comma() {
        if (needComma) {
            sb.append(',');
        }
    }

    private void string(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
