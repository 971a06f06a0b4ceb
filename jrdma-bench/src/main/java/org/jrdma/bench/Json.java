package org.jrdma.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for the one-object lines the runner's children print: objects become
 * {@code Map<String, Object>} (in key order), arrays {@code List<Object>}, numbers
 * {@code Double}, and true/false/null themselves. Whitespace anywhere, any key order. Bare
 * {@code NaN}, {@code Infinity} and {@code -Infinity} (what Java's and C's printf give) are
 * read as doubles too. Anything else fails with {@link JsonException}, naming the offset.
 */
public final class Json {
    private final String text;
    private int pos;

    private Json(String text, int pos) {
        this.text = text;
        this.pos = pos;
    }

    /** Failure to read JSON, with the offset and a glimpse of the text there. */
    public static final class JsonException extends RuntimeException {
        JsonException(String message) {
            super(message);
        }
    }

    /** Parses one JSON object that must fill the whole text (surrounding whitespace aside). */
    public static Map<String, Object> parseObject(String text) {
        Json p = new Json(text, 0);
        Map<String, Object> o = p.object();
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("text after the object");
        }
        return o;
    }

    /**
     * Parses the JSON object that starts at {@code start} and returns it with the offset just
     * past it, ignoring whatever follows (for objects embedded in other output).
     */
    static Parsed parseObjectAt(String text, int start) {
        Json p = new Json(text, start);
        Map<String, Object> o = p.object();
        return new Parsed(o, p.pos);
    }

    record Parsed(Map<String, Object> object, int end) {
    }

    private Map<String, Object> object() {
        skipSpace();
        expect('{');
        Map<String, Object> o = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            pos++;
            return o;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("expected a \"key\"");
            }
            String key = string();
            skipSpace();
            expect(':');
            o.put(key, value());
            skipSpace();
            char c = next("',' or '}'");
            if (c == '}') {
                return o;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() {
        expect('[');
        List<Object> a = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            pos++;
            return a;
        }
        while (true) {
            a.add(value());
            skipSpace();
            char c = next("',' or ']'");
            if (c == ']') {
                return a;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private Object value() {
        skipSpace();
        char c = peek();
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            case 'N' -> word("NaN", Double.NaN);
            case 'I' -> word("Infinity", Double.POSITIVE_INFINITY);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("expected a value");
            }
        };
    }

    private Object word(String w, Object v) {
        if (!text.startsWith(w, pos)) {
            throw error("expected " + w);
        }
        pos += w.length();
        return v;
    }

    private Double number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
            if (text.startsWith("Infinity", pos)) {
                pos += "Infinity".length();
                return Double.NEGATIVE_INFINITY;
            }
        }
        while (pos < text.length() && "0123456789.eE+-".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String n = text.substring(start, pos);
        try {
            return Double.valueOf(n);
        } catch (NumberFormatException e) {
            pos = start;
            throw error("bad number '" + n + "'");
        }
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = next("closing '\"'");
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = next("an escape");
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    try {
                        sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                }
                default -> {
                    pos--;
                    throw error("bad escape \\" + e);
                }
            }
        }
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(pos);
    }

    private char next(String what) {
        if (pos >= text.length()) {
            throw error("unexpected end, expected " + what);
        }
        return text.charAt(pos++);
    }

    private void expect(char c) {
        if (pos >= text.length() || text.charAt(pos) != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private JsonException error(String what) {
        int from = Math.max(0, pos - 20);
        int to = Math.min(text.length(), pos + 20);
        String near = text.substring(from, to).replace('\n', ' ');
        return new JsonException("JSON: " + what + " at offset " + pos + " near «" + near + "»");
    }
}
