package org.jrdma.bootstrap.rendezvous;

import java.util.List;

/** Ascending ranks written as runs, "0-3,7,9-10", so that 200 missing ranks make a short line. */
final class Ranges {
    private Ranges() {
    }

    static String of(List<Integer> ascending) {
        StringBuilder s = new StringBuilder();
        int i = 0;
        while (i < ascending.size()) {
            int start = ascending.get(i);
            int end = start;
            while (i + 1 < ascending.size() && ascending.get(i + 1) == end + 1) {
                end = ascending.get(++i);
            }
            if (!s.isEmpty()) {
                s.append(',');
            }
            s.append(start);
            if (end != start) {
                s.append('-').append(end);
            }
            i++;
        }
        return s.toString();
    }
}
