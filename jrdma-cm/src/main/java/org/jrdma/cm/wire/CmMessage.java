package org.jrdma.cm.wire;

/**
 * A CM message: the 232 bytes after the MAD header (§7.6). Each record's constructor checks every
 * field against its width (IllegalArgumentException naming the field) and pads its private data,
 * given shorter or null, with zeros to the message's fixed capacity.
 */
public sealed interface CmMessage permits Req, Rep, Rtu, Rej, Mra, Dreq, Drep, SidrReq, SidrRep {
    /**
     * The message type.
     *
     * @return the attribute whose ID the MAD header carries
     */
    CmAttribute attribute();

    /**
     * A copy of the private data, always the message's full capacity.
     *
     * @return the private data
     */
    byte[] privateData();
}
