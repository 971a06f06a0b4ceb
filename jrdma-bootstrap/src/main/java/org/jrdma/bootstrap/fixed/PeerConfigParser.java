package org.jrdma.bootstrap.fixed;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.Excerpt;
import org.jrdma.bootstrap.InvalidFieldException;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.Mtus;
import org.jrdma.bootstrap.RemoteBuffer;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;

/**
 * The static peer format, strict on purpose (OOB-13): one {@code key = value} per line, blank
 * lines and whole-line {@code #} comments ignored, no trailing comments (so {@code qpn=0x12 # x}
 * is an error, not a silently different value). Keys: {@code lid}, {@code qpn}, {@code psn}
 * (decimal or {@code 0x} hex), {@code gid} (32 hex digits in raw order as rc_pingpong sends it,
 * or an IP literal such as {@code ::ffff:10.77.0.3} or {@code 10.77.0.3}; never a host name, so no
 * DNS), optional {@code mtu} (256…4096), and optionally, both or neither, the buffer the peer
 * exposes: {@code rkey} (u32) and {@code vaddr} (u64), decimal or {@code 0x} hex, as perftest
 * prints them ({@code RKey 0x001234 VAddr 0x007f0000001000}). An unknown, duplicate or missing key
 * is an error naming the key, so two conflicting entries can never both be "the" value.
 */
final class PeerConfigParser {
    /** A config is a handful of lines; anything larger is not one, and is refused before parsing. */
    static final int MAX_CHARS = 4096;

    private static final Pattern NUMBER = Pattern.compile("0[xX][0-9a-fA-F]{1,8}|[0-9]{1,10}");
    private static final Pattern U32 = Pattern.compile("0[xX][0-9a-fA-F]{1,8}|[0-9]{1,10}");
    private static final Pattern U64 = Pattern.compile("0[xX][0-9a-fA-F]{1,16}|[0-9]{1,20}");
    private static final Pattern HEX32 = Pattern.compile("[0-9a-fA-F]{32}");
    private static final Pattern PRINTABLE_KEY = Pattern.compile("[A-Za-z0-9_.-]{1,32}");

    private PeerConfigParser() {
    }

    static PeerConfig parse(CharSequence text) {
        if (text.length() > MAX_CHARS) {
            throw new MalformedMessageException("size", "a peer config is at most " + MAX_CHARS + " characters, got " + text.length());
        }
        Map<String, String> values = new HashMap<>();
        Map<String, Integer> lineOf = new HashMap<>();
        String[] lines = text.toString().split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int lineNumber = i + 1;
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw new MalformedMessageException("line", "line " + lineNumber + ": expected key=value, got " + Excerpt.of(line));
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (!isKnown(key)) {
                throw new MalformedMessageException(PRINTABLE_KEY.matcher(key).matches() ? key : "key",
                        "line " + lineNumber + ": unknown key " + Excerpt.of(key) + " (known: lid, qpn, psn, gid, mtu, rkey, vaddr)");
            }
            Integer first = lineOf.putIfAbsent(key, lineNumber);
            if (first != null) {
                throw new MalformedMessageException(key, "line " + lineNumber + ": duplicate key (first given on line " + first + ")");
            }
            values.put(key, value);
        }
        for (String key : new String[] {"lid", "qpn", "psn", "gid"}) {
            if (!values.containsKey(key)) {
                throw new MalformedMessageException(key, "missing key");
            }
        }
        ConnInfo peer;
        try {
            peer = new ConnInfo(number("lid", values.get("lid")), number("qpn", values.get("qpn")),
                    number("psn", values.get("psn")), gid(values.get("gid")), buffer(values));
        } catch (InvalidFieldException e) {
            throw MalformedMessageException.from(e);
        }
        Optional<Mtu> mtu = Optional.ofNullable(values.get("mtu")).map(Mtus::parse);
        return new PeerConfig(peer, mtu);
    }

    private static boolean isKnown(String key) {
        return switch (key) {
            case "lid", "qpn", "psn", "gid", "mtu", "rkey", "vaddr" -> true;
            default -> false;
        };
    }

    /** The peer's buffer when both {@code rkey} and {@code vaddr} are given, null when neither is. */
    private static RemoteBuffer buffer(Map<String, String> values) {
        String rkey = values.get("rkey");
        String vaddr = values.get("vaddr");
        if (rkey == null && vaddr == null) {
            return null;
        }
        if (rkey == null || vaddr == null) {
            String missing = rkey == null ? "rkey" : "vaddr";
            String given = rkey == null ? "vaddr" : "rkey";
            throw new MalformedMessageException(missing, "missing key: " + given + " is given, and a buffer needs"
                    + " both rkey and vaddr");
        }
        long key = unsigned("rkey", rkey, U32);
        if (key > 0xFFFF_FFFFL) {
            throw new MalformedMessageException("rkey", rkey + " is out of range (an rkey is 32 bits)");
        }
        return new RemoteBuffer(unsigned("vaddr", vaddr, U64), (int) key);
    }

    /** An unsigned decimal or 0x-hex number of at most 64 bits. */
    private static long unsigned(String key, String value, Pattern form) {
        if (!form.matcher(value).matches()) {
            throw new MalformedMessageException(key, Excerpt.of(value) + " is not a decimal or 0x-hex number of its width");
        }
        try {
            return value.length() > 1 && (value.charAt(1) == 'x' || value.charAt(1) == 'X')
                    ? Long.parseUnsignedLong(value.substring(2), 16)
                    : Long.parseUnsignedLong(value);
        } catch (NumberFormatException e) {
            throw new MalformedMessageException(key, value + " is out of range (at most 64 bits)");
        }
    }

    private static int number(String key, String value) {
        if (!NUMBER.matcher(value).matches()) {
            throw new MalformedMessageException(key, Excerpt.of(value) + " is not a decimal or 0x-hex number");
        }
        long v = value.length() > 1 && (value.charAt(1) == 'x' || value.charAt(1) == 'X')
                ? Long.parseLong(value.substring(2), 16)
                : Long.parseLong(value);
        if (v > Integer.MAX_VALUE) {
            throw new MalformedMessageException(key, value + " is out of range");
        }
        return (int) v;
    }

    private static Gid gid(String value) {
        if (HEX32.matcher(value).matches()) {
            return Gid.fromHex(value);
        }
        try {
            // ofLiteral never consults DNS: a GID names an address, not a host.
            return Gid.of(InetAddress.ofLiteral(value));
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException("gid", Excerpt.of(value) + " is neither 32 hex digits nor an IP address literal");
        }
    }
}
