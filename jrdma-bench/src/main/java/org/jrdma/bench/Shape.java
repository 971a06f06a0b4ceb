package org.jrdma.bench;

/** One perftest test at one message size, e.g. write_bw at 64 KiB. */
public record Shape(String test, int sizeBytes) {
    public Shape {
        if (!test.endsWith("_bw") && !test.endsWith("_lat")) {
            throw new IllegalArgumentException("a perftest test ends in _bw or _lat: " + test);
        }
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("size must be > 0: " + sizeBytes);
        }
    }

    public Kind kind() {
        return test.endsWith("_bw") ? Kind.BANDWIDTH : Kind.LATENCY;
    }

    public String label() {
        return test + " " + sizeLabel(sizeBytes);
    }

    /** 64 B, 4 KiB, 64 KiB, 1 MiB; sizes that are not whole KiB/MiB stay in bytes. */
    public static String sizeLabel(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return bytes / (1 << 10) + " KiB";
        }
        return bytes + " B";
    }
}
