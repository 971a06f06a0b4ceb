package org.jrdma.bench;

/** One perftest test at one message size, e.g. write_bw at 64 KiB, perhaps with a {@link Variant} (-q 16, -e …). */
public record Shape(String test, int sizeBytes, Variant variant) {
    public Shape {
        if (!test.endsWith("_bw") && !test.endsWith("_lat")) {
            throw new IllegalArgumentException("a perftest test ends in _bw or _lat: " + test);
        }
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("size must be > 0: " + sizeBytes);
        }
        if (variant == null) {
            throw new IllegalArgumentException("variant is NONE, not null");
        }
    }

    public Shape(String test, int sizeBytes) {
        this(test, sizeBytes, Variant.NONE);
    }

    public Kind kind() {
        return test.endsWith("_bw") ? Kind.BANDWIDTH : Kind.LATENCY;
    }

    /** "write_bw 64 KiB", "write_bw 64 KiB -q 16". */
    public String label() {
        return test + " " + sizeLabel(sizeBytes) + (variant.label().isEmpty() ? "" : " " + variant.label());
    }

    /** What {@code --only} names it by: {@code write_bw@65536}, {@code write_bw@65536:q16}. */
    public String id() {
        return test + "@" + sizeBytes + (variant.name().isEmpty() ? "" : ":" + variant.name());
    }

    /** The plain run this one is compared with, when its variant is compared with the plain run; else null. */
    public Shape reference() {
        return variant.versusPlain() ? new Shape(test, sizeBytes) : null;
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
