package org.jrdma.cm.wire;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** The five CM MADs of the rping capture, from the test resource (CI has no ../shared). */
final class RpingMads {
    record Frame(String comment, byte[] mad) {
        @Override
        public String toString() {
            return comment;
        }
    }

    static final List<Frame> ALL = load();

    private RpingMads() {
    }

    /** The MAD whose comment line starts with "# frame N:". */
    static byte[] frame(int n) {
        return ALL.stream().filter(f -> f.comment.startsWith("# frame " + n + ":")).findFirst().orElseThrow().mad.clone();
    }

    private static List<Frame> load() {
        try (InputStream in = RpingMads.class.getResourceAsStream("rping-mads.hex")) {
            List<Frame> frames = new ArrayList<>();
            String comment = null;
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (line.startsWith("# frame ")) {
                    comment = line;
                } else if (!line.isBlank() && !line.startsWith("#")) {
                    frames.add(new Frame(comment, HexFormat.of().parseHex(line.strip())));
                }
            }
            return List.copyOf(frames);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
