package org.jrdma.verbs;

/** {@code struct ibv_ah}: a UD destination. */
public interface AddressHandle extends AutoCloseable {
    /** {@return the address vector the handle was created with} */
    AhAttr attr();

    /** ibv_destroy_ah. */
    @Override
    void close();
}
