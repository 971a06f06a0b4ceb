package org.jrdma.cm.wire;

import java.util.Objects;

/**
 * A decoded CM MAD: the header (TID, ECE attribute modifier…) and the message.
 *
 * @param header the MAD header
 * @param message the CM message
 */
public record CmMad(MadHeader header, CmMessage message) {
    /**
     * Checks that the header's attribute ID is the message's.
     *
     * @throws IllegalArgumentException if it is not
     */
    public CmMad {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(message, "message");
        if (header.attributeId() != message.attribute().id()) {
            throw new IllegalArgumentException("header attributeId 0x" + Integer.toHexString(header.attributeId())
                    + " is not " + message.attribute() + " (0x" + Integer.toHexString(message.attribute().id()) + ")");
        }
    }
}
