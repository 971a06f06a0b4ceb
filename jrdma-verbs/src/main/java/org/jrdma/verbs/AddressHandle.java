package org.jrdma.verbs;

/** {@code struct ibv_ah}: a UD destination. */
public interface AddressHandle extends AutoCloseable {
    AhAttr attr();

    @Override
    void close();
}
