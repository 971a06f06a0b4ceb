package org.jrdma.tools.perf;

/**
 * Where each QP's bytes live in the one registered buffer. Per QP, three regions of
 * {@link #regionBytes} each (1 MiB, or the largest message if larger):
 *
 * <pre>
 *  ┌─ local ─────────────┬─ target ────────────┬─ receive (SEND tests) ─┐
 *  │ SEND/WRITE sources, │ where the peer's    │ receive buffers         │
 *  │ READ destinations,  │ WRITEs land, READs  │ (UD: 40-byte GRH area   │
 *  │ atomic results      │ read, atomics count │  in front of each)      │
 *  └─────────────────────┴─────────────────────┴─────────────────────────┘
 * </pre>
 *
 * The target region's address is the {@code vaddr} of the QP's key message. Slots are 64-byte
 * aligned. Operations cycle through slots: local and receive slots fill their region (at most
 * {@value #MAX_SLOTS} / the receive depth); remote slots stay within
 * {@code max(size, cycle buffer)} of the peer's vaddr, the area a perftest peer exposes per QP
 * (with {@code --check}, whose peer is jrdma, within its whole target region).
 * With {@code --check}, no more operations are outstanding than there are slots, so a slot is
 * reused only after its operation completed and was checked.
 */
final class BufferLayout {
    static final int RING_BYTES = 1 << 20;
    static final int MAX_SLOTS = 256;
    static final int ALIGN = 64;
    /** A UD receive starts with the 40-byte GRH area. */
    static final int UD_GRH = 40;
    static final int PAGE = 4096;

    final long regionBytes;
    final long perQpBytes;
    final int qps;

    BufferLayout(int maxSize, boolean ud, int qps) {
        long needed = roundUp((long) maxSize + (ud ? UD_GRH : 0), PAGE);
        this.regionBytes = Math.max(RING_BYTES, needed);
        this.perQpBytes = 3 * regionBytes;
        this.qps = qps;
    }

    long totalBytes() {
        return perQpBytes * qps;
    }

    long localOffset(int qp) {
        return qp * perQpBytes;
    }

    long targetOffset(int qp) {
        return qp * perQpBytes + regionBytes;
    }

    long receiveOffset(int qp) {
        return qp * perQpBytes + 2 * regionBytes;
    }

    static int stride(int size) {
        return (int) roundUp(Math.max(size, 1), ALIGN);
    }

    int localSlots(int size) {
        return Math.clamp(regionBytes / stride(size), 1, MAX_SLOTS);
    }

    /**
     * Slots within {@code max(size, cycle buffer)} of the peer's vaddr — or, with
     * {@code --check} (so the peer is jrdma, whose target region has {@value #RING_BYTES} bytes at
     * least), as many as fit there, so that more WRITEs are left to check.
     */
    static int remoteSlots(int size, int cycleBuffer, boolean check) {
        int span = check ? Math.max(size, RING_BYTES) : Math.max(size, cycleBuffer);
        return Math.clamp(span / stride(size), 1, MAX_SLOTS);
    }

    static int receiveStride(int size, boolean ud) {
        return stride(size + (ud ? UD_GRH : 0));
    }

    int receiveSlots(int size, boolean ud, int rxDepth) {
        return Math.clamp(regionBytes / receiveStride(size, ud), 1, Math.max(1, rxDepth));
    }

    static long roundUp(long v, long to) {
        return (v + to - 1) / to * to;
    }
}
