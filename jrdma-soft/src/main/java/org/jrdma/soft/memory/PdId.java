package org.jrdma.soft.memory;

/**
 * The identity of a protection domain, as the memory and transport code sees it: regions,
 * windows and QPs meet only when they hold the same instance (IBA 10.2.3). It carries nothing
 * else on purpose — the verbs object (SoftPd) keeps the members and the lifecycle, and the
 * packet path needs only an identity comparison.
 */
public final class PdId {
    @Override
    public String toString() {
        return "PdId@" + Integer.toHexString(System.identityHashCode(this));
    }
}
