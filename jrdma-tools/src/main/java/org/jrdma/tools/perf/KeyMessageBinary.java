package org.jrdma.tools.perf;

import java.nio.ByteBuffer;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.verbs.Gid;

/**
 * perftest's key message with {@code -R} (rdma_cm): not the hex text of the TCP exchange but
 * {@code struct pingpong_dest} itself, 56 bytes with every field in network byte order, sent
 * with an RDMA SEND on the exchange QP (captured: conformance/rxe/write_bw_rdmacm.pcap):
 *
 * <pre>
 *  0 lid        4 out_reads   8 qpn   12 psn   16 rkey   20 (padding)   24 vaddr (8)
 * 32 gid (16, raw)   48 srqn   52 gid_index
 * </pre>
 *
 * The padding is whatever was on perftest's stack (it differs between two sends of the same
 * message), so it is ignored; so is the peer's GID index, which names a slot of its own table.
 */
final class KeyMessageBinary {
    static final int SIZE = 56;

    private KeyMessageBinary() {
    }

    static byte[] encode(KeyMessage m, int gidIndex) {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        b.putInt(0, m.lid()).putInt(4, m.outReads()).putInt(8, m.qpn()).putInt(12, m.psn()).putInt(16, m.rkey())
                .putLong(24, m.vaddr()).put(32, m.gid().toBytes()).putInt(48, m.srqn()).putInt(52, gidIndex);
        return b.array();
    }

    /** Refuses a message whose fields are out of range (names the field), before anything uses it. */
    static KeyMessage decode(byte[] message) {
        if (message.length != SIZE) {
            throw new MalformedMessageException("key message", message.length + " bytes, not " + SIZE);
        }
        ByteBuffer b = ByteBuffer.wrap(message);
        byte[] gid = new byte[16];
        b.get(32, gid);
        return new KeyMessage(b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16), b.getLong(24),
                Gid.of(gid), b.getInt(48));
    }
}
