package org.jrdma.tools.demo;

import java.util.Locale;
import java.util.Map;

/** A tiny JSON writer for the demo's {@code --json} line (the tools take no JSON library). */
final class Json {
    private final StringBuilder sb = new StringBuilder();
    private boolean needComma;

    Json begin() {
        comma();
        sb.append('{');
        needComma = false;
        return this;
    }

    Json end() {
        sb.append('}');
        needComma = true;
        return this;
    }

    Json key(String k) {
        comma();
        string(k);
        sb.append(':');
        needComma = false;
        return this;
    }

    Json field(String k, String v) {
        key(k);
        if (v == null) {
            sb.append("null");
        } else {
            string(v);
        }
        needComma = true;
        return this;
    }

    Json field(String k, long v) {
        key(k).sb.append(v);
        needComma = true;
        return this;
    }

    Json field(String k, double v) {
        key(k).sb.append(String.format(Locale.ROOT, "%.3f", v));
        needComma = true;
        return this;
    }

    Json field(String k, boolean v) {
        key(k).sb.append(v);
        needComma = true;
        return this;
    }

    Json map(String k, Map<String, Long> m) {
        key(k).begin();
        m.forEach(this::field);
        return end();
    }

    Json beginArray(String k) {
        key(k).sb.append('[');
        needComma = false;
        return this;
    }

    Json endArray() {
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
