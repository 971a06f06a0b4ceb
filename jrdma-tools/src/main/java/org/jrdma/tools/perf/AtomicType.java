package org.jrdma.tools.perf;

import org.jrdma.verbs.WrOpcode;

/** perftest's {@code -A}: which atomic the atomic tests post. */
public enum AtomicType {
    CMP_AND_SWAP(WrOpcode.ATOMIC_CMP_AND_SWP), FETCH_AND_ADD(WrOpcode.ATOMIC_FETCH_AND_ADD);

    private final WrOpcode opcode;

    AtomicType(WrOpcode opcode) {
        this.opcode = opcode;
    }

    WrOpcode opcode() {
        return opcode;
    }
}
