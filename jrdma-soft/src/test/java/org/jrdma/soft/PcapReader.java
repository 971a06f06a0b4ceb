package org.jrdma.soft;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the records of a classic little-endian pcap (LINKTYPE_RAW) for tests. */
public final class PcapReader {
    private PcapReader() {
    }

    /** Each record's bytes (an IPv4 packet), as a big-endian buffer. */
    public static List<ByteBuffer> records(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(0) != 0xa1b2c3d4 || b.getInt(20) != 101) {
            throw new IOException("not a LINKTYPE_RAW pcap");
        }
        List<ByteBuffer> out = new ArrayList<>();
        int pos = 24;
        while (pos + 16 <= b.limit()) {
            int incl = b.getInt(pos + 8);
            ByteBuffer rec = ByteBuffer.allocate(incl).order(ByteOrder.BIG_ENDIAN);
            rec.put(0, b, pos + 16, incl);
            out.add(rec);
            pos += 16 + incl;
        }
        return out;
    }
}
