package org.jrdma.cm.spi;

/**
 * A connection manager for the devices of one verbs provider, found by ServiceLoader. An
 * {@link org.jrdma.cm.EventChannel} takes it when the devices its options offer are that
 * provider's (the first one decides, as {@code Verbs.device(null)} takes the first device);
 * everything else keeps the built-in CM.
 */
public interface CmBackend {
    /**
     * The {@code Provider.name()} whose devices this CM serves.
     *
     * @return the provider's name, e.g. {@code native}
     */
    String provider();

    /**
     * Whether it can run here; {@link #unavailabilityCause()} says why not.
     *
     * @return false when it cannot (no library, no native access)
     */
    boolean isAvailable();

    /**
     * One line naming what is missing and how to fix it.
     *
     * @return the cause, or null when available
     */
    String unavailabilityCause();

    /**
     * {@code rdma_create_event_channel}.
     *
     * @param sink makes the API's ids and events
     * @return the channel
     * @throws org.jrdma.cm.CmException naming the call and errno when the channel cannot be made
     */
    ChannelBackend openChannel(EventSink sink);
}
