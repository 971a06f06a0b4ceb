package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Objects;

/**
 * rdma_cm's {@code cma_hdr} (§7.7): the first 36 bytes of an rdma_cm REQ's (or SIDR_REQ's) private
 * data, carrying the active side's port and both IP addresses. The passive side needs it to match
 * a listener's bound address and to report the peer's address.
 *
 * <p>{@code ipVersion} is 4 or 6 (the upper nibble of byte 1). IPv4 addresses are 12 zero bytes
 * then the address. Java turns the IPv4-mapped {@code ::ffff:a.b.c.d} into an {@link Inet4Address},
 * so with {@code ipVersion} 6 an Inet4Address is written back in that mapped form.
 *
 * @param cmaVersion the cma_hdr version, 8 bits; {@value #CMA_VERSION}
 * @param ipVersion 4 or 6
 * @param sourcePort the active side's port, 16 bits
 * @param source the active side's IP address
 * @param destination the passive side's IP address
 */
public record CmaHeader(int cmaVersion, int ipVersion, int sourcePort, InetAddress source, InetAddress destination) {
    /** The header's size: 36 bytes. */
    public static final int SIZE = 36;
    /** The user's share of a REQ's 92 bytes: what rdma_connect accepts (§7.3). */
    public static final int USER_DATA_SIZE = Req.PRIVATE_DATA_SIZE - SIZE;
    /** The only version rdma_cm defines; Linux refuses a REQ with another. */
    public static final int CMA_VERSION = 0;

    /**
     * Checks the fields.
     *
     * @throws IllegalArgumentException for a version or port that does not fit, an IP version other
     *     than 4 or 6, or IP version 4 with an IPv6 address
     * @throws NullPointerException if an address is null
     */
    public CmaHeader {
        check("CmaHeader.cmaVersion", cmaVersion, 8);
        check("CmaHeader.sourcePort", sourcePort, 16);
        Objects.requireNonNull(source, "CmaHeader.source");
        Objects.requireNonNull(destination, "CmaHeader.destination");
        if (ipVersion != 4 && ipVersion != 6) {
            throw new IllegalArgumentException("CmaHeader.ipVersion = " + ipVersion + "; 4 or 6");
        }
        if (ipVersion == 4 && !(source instanceof Inet4Address && destination instanceof Inet4Address)) {
            throw new IllegalArgumentException("CmaHeader.ipVersion 4 needs IPv4 addresses, not "
                    + source.getHostAddress() + " and " + destination.getHostAddress());
        }
    }

    /**
     * The header Linux sends: version 0, IPv4 if both addresses are IPv4, else IPv6.
     *
     * @param sourcePort the active side's port
     * @param source the active side's IP address
     * @param destination the passive side's IP address
     * @return the header
     */
    public static CmaHeader of(int sourcePort, InetAddress source, InetAddress destination) {
        boolean v4 = source instanceof Inet4Address && destination instanceof Inet4Address;
        return new CmaHeader(CMA_VERSION, v4 ? 4 : 6, sourcePort, source, destination);
    }

    /**
     * Reads the header at the start of a REQ's private data. Refuses, as Linux does, a version other
     * than 0 and an IP version other than 4 or 6.
     *
     * @param reqPrivateData a REQ's (or SIDR_REQ's) private data
     * @return the header
     * @throws CmFormatException if it is shorter than {@value #SIZE} bytes or a version is wrong
     */
    public static CmaHeader decode(byte[] reqPrivateData) throws CmFormatException {
        if (reqPrivateData.length < SIZE) {
            throw new CmFormatException("privateData", reqPrivateData.length + " bytes; a cma_hdr is " + SIZE);
        }
        int version = reqPrivateData[0] & 0xFF;
        if (version != CMA_VERSION) {
            throw new CmFormatException("cmaVersion", version + "; rdma_cm defines only " + CMA_VERSION);
        }
        int ip = (reqPrivateData[1] & 0xFF) >>> 4;
        if (ip != 4 && ip != 6) {
            throw new CmFormatException("ipVersion", ip + "; 4 or 6");
        }
        int port = (reqPrivateData[2] & 0xFF) << 8 | reqPrivateData[3] & 0xFF;
        return new CmaHeader(version, ip, port, address(reqPrivateData, 4, ip), address(reqPrivateData, 20, ip));
    }

    /**
     * The 92-byte REQ private data: this header, then {@code user} (at most 56 bytes), then zeros.
     *
     * @param user the user's private data for {@code rdma_connect}
     * @return the REQ's private data
     * @throws IllegalArgumentException if {@code user} is longer than {@value #USER_DATA_SIZE} bytes
     */
    public byte[] withUserData(byte[] user) {
        if (user.length > USER_DATA_SIZE) {
            throw new IllegalArgumentException(
                    "rdma_connect private data is " + user.length + " bytes; at most " + USER_DATA_SIZE);
        }
        byte[] p = new byte[Req.PRIVATE_DATA_SIZE];
        p[0] = (byte) cmaVersion;
        p[1] = (byte) (ipVersion << 4);
        p[2] = (byte) (sourcePort >>> 8);
        p[3] = (byte) sourcePort;
        put(p, 4, source);
        put(p, 20, destination);
        System.arraycopy(user, 0, p, SIZE, user.length);
        return p;
    }

    /**
     * The 56 user bytes after the header, as the passive side's CONNECT_REQUEST reports them.
     *
     * @param reqPrivateData a REQ's private data, {@value #SIZE} to 92 bytes
     * @return the user's bytes, zero padded to 56
     * @throws IllegalArgumentException if the length is outside that range
     */
    public static byte[] userData(byte[] reqPrivateData) {
        if (reqPrivateData.length < SIZE || reqPrivateData.length > Req.PRIVATE_DATA_SIZE) {
            throw new IllegalArgumentException("REQ private data is " + reqPrivateData.length
                    + " bytes; a cma_hdr needs " + SIZE + " and a REQ holds " + Req.PRIVATE_DATA_SIZE);
        }
        return Arrays.copyOfRange(reqPrivateData, SIZE, Req.PRIVATE_DATA_SIZE);
    }

    /** IPv4 takes the last 4 of the 16 bytes, as Linux reads it; the 12 before are padding. */
    private static InetAddress address(byte[] p, int at, int ipVersion) {
        byte[] raw = ipVersion == 4 ? Arrays.copyOfRange(p, at + 12, at + 16) : Arrays.copyOfRange(p, at, at + 16);
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new AssertionError("4 or 16 bytes are always an address", e);
        }
    }

    private void put(byte[] p, int at, InetAddress a) {
        byte[] raw = a.getAddress();
        if (raw.length == 4 && ipVersion == 6) {
            p[at + 10] = (byte) 0xFF;
            p[at + 11] = (byte) 0xFF;
        }
        System.arraycopy(raw, 0, p, at + 16 - raw.length, raw.length);
    }
}
