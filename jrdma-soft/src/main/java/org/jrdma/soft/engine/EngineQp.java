package org.jrdma.soft.engine;

import org.jrdma.soft.transport.TransportQp;
import org.jrdma.verbs.QpType;

/**
 * A QP as the engine sees it: its transport state, and the monitor that the engine and the
 * verbs object (SoftQp, which implements this) both hold while they touch that state — the
 * engine synchronizes on the EngineQp itself.
 */
public interface EngineQp extends QpTable.Entry {
    TransportQp transport();

    QpType qpType();

    /** Whether the engine visits this QP in its passes: held for {@link ActiveQps}, made with the QP. */
    ActiveQps.Slot activeSlot();
}
