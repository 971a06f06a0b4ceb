package org.jrdma.verbs;

/** RFC 5952 text of an IPv6 address (longest run of zero groups as "::"), as inet_ntop prints it. */
final class Ipv6Text {
    private Ipv6Text() {
    }

    static String format(byte[] raw) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((raw[2 * i] & 0xFF) << 8) | (raw[2 * i + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLen = 1; // a single zero group is not compressed
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (!sb.isEmpty() && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(groups[i]));
        }
        return sb.toString();
    }
}
