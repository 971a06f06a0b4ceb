package org.jrdma.soft.wire;

/** The extension headers that can follow the BTH (ROCEV2-FACTS §1.5), with their lengths. */
public enum ExtHeader {
    RETH(Reth.LENGTH),
    AETH(Aeth.LENGTH),
    IMM_DT(ImmDt.LENGTH),
    IETH(Ieth.LENGTH),
    DETH(Deth.LENGTH),
    ATOMIC_ETH(AtomicEth.LENGTH),
    ATOMIC_ACK_ETH(AtomicAckEth.LENGTH);

    private final int length;

    ExtHeader(int length) {
        this.length = length;
    }

    public int length() {
        return length;
    }

    /** This header's bit in {@link Opcode#extHeaderMask()}. */
    public int bit() {
        return 1 << ordinal();
    }
}
