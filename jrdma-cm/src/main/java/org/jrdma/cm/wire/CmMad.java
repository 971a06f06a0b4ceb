package org.jrdma.cm.wire;

import java.util.Objects;

/** A decoded CM MAD: the header (TID, ECE attribute modifier…) and the message. */
public record CmMad(MadHeader header, CmMessage message) {
    public CmMad {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(message, "message");
        if (header.attributeId() != message.attribute().id()) {
            throw new IllegalArgumentException("header attributeId 0x" + Integer.toHexString(header.attributeId())
                    + " is not " + message.attribute() + " (0x" + Integer.toHexString(message.attribute().id()) + ")");
        }
    }
}
