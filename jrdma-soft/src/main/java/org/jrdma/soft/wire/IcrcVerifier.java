package org.jrdma.soft.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Receive-side ICRC check for RoCEv2 over a UDP socket, which cannot see the IPv4 header the
 * ICRC covers (ROCEV2-FACTS §1.8, §8.2). TOS, TTL and the checksum are masked, and addresses,
 * ports and lengths are known, but the sender's IPv4 <em>identification</em> and flags are not:
 * our own peers send ID 0 with DF (§8.1), while Linux rxe and NICs send non-zero IDs.
 *
 * <h2>How</h2>
 * First the common case: compute the ICRC with ID 0 and DF and compare. If that fails, solve
 * for the ID instead of guessing it. CRC-32 is affine over GF(2): for a fixed packet length,
 * crc(ID = x) = crc(ID = 0) XOR L(x), with L linear. The 4 bytes ID‖flags sit at a fixed
 * position in the CRC input with k bytes after them, so L(w) = w(x)·x^(32 + 8k) mod P (see
 * {@link Crc32Poly}), and since x is invertible mod P there is exactly one 32-bit w with
 * crc(ID‖flags = w) equal to the received ICRC: w = (received XOR crc0)·x^-(32 + 8k) mod P.
 * The packet is accepted iff that w has flags DF (0x4000), or 0 if the {@link Ipv4IdPolicy}
 * allows it; its ID, whatever it is, is then the sender's. This is Gaussian elimination of 32
 * equations in 32 unknowns done in closed form: one CRC pass plus one polynomial
 * multiplication by x^-(32 + 8k), which is cached per UDP length.
 *
 * <h2>Trade-off</h2>
 * A correct packet from any sender is accepted and its ID recovered ({@link #lastIpId()}). The
 * price is detection strength. With the ID free, 2^16 of the 2^32 CRC values are acceptable
 * per allowed flags value, so a randomly corrupted packet passes with probability 2^-16 under
 * {@link Ipv4IdPolicy#ANY_ID_DF} and 2^-15 under {@link Ipv4IdPolicy#ANY_ID}, instead of 2^-32.
 * CRC-32's guarantee to catch every single-bit error is weakened too: a flip of bit e of UDP
 * payload byte i moves the solved word by e·x^-8(i + 24) mod P whatever the packet's length,
 * and where that lands in the ID's 16 bits (flags unchanged, or DF toggled) the flip goes
 * unnoticed. Computed exhaustively (IcrcVerifierTest): under ANY_ID_DF no single-bit flip of a
 * UDP payload shorter than 26 745 bytes passes; under ANY_ID, bit 3 of byte 173 and bit 6 of
 * byte 1834 pass (by toggling DF), and so does one ICRC bit of a 176- or 1836-byte payload.
 * The Ethernet FCS and, when the sender fills it, the UDP checksum still guard the link (rxe
 * sends UDP checksum 0). When every peer is known to send ID 0 (jrdma to jrdma),
 * {@link Ipv4IdPolicy#ID_ZERO_ONLY} keeps the full CRC-32. IPv6 has no ID: always exact.
 *
 * <p>Not thread-safe; one per engine thread. No allocation per packet.
 */
public final class IcrcVerifier {
    /** Which IPv4 identification and flags a received packet may have been sent with. */
    public enum Ipv4IdPolicy {
        /** Only ID 0 with DF, what jrdma sends: full CRC-32 strength, but rxe and NICs fail. */
        ID_ZERO_ONLY,
        /** Any ID with DF, as rxe (always DF, §1.1) and the NICs seen so far send. */
        ANY_ID_DF,
        /** Any ID, with DF or without flags. */
        ANY_ID
    }

    /** Which IPv4 ID and flags made the last packet verify. */
    public enum Match {
        /** Did not verify. */
        NONE,
        /** ID 0 with DF, as jrdma sends: no solving needed. */
        ID_ZERO,
        /** Some other ID (or no flags), found by solving. */
        SOLVED,
        /** IPv6, where the check is exact. */
        IPV6
    }

    /** IPv4 header bytes after the flags word: TTL, protocol, checksum, addresses. */
    private static final int IPV4_AFTER_FLAGS = 12;
    /**
     * CRC input bytes after the flags word, less the UDP payload length: the rest of the IPv4
     * header and the UDP header, minus the ICRC slot, which the CRC does not cover.
     */
    private static final int FIXED_TAIL = IPV4_AFTER_FLAGS + Icrc.UDP_HEADER_LENGTH - Icrc.LENGTH;
    private static final int CACHE_SIZE = 256;

    private final Icrc icrc = new Icrc();
    private final Ipv4IdPolicy policy;
    /** Direct-mapped cache: UDP payload length → x^-(32 + 8k) mod P. */
    private final int[] cachedLength = new int[CACHE_SIZE];
    private final int[] cachedInverse = new int[CACHE_SIZE];

    private Match lastMatch = Match.NONE;
    private int lastIpId;
    private int lastIpFlags;

    /** {@link Ipv4IdPolicy#ANY_ID}: any ID, DF or no flags, so Linux rxe and NICs verify. */
    public IcrcVerifier() {
        this(Ipv4IdPolicy.ANY_ID);
    }

    public IcrcVerifier(Ipv4IdPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        Arrays.fill(cachedLength, -1);
    }

    /**
     * Whether the UDP payload {@code buffer[offset, offset + length)} (BTH through ICRC) carries
     * a correct ICRC for some IPv4 header with these addresses and ports.
     */
    public boolean verifyIpv4(int srcIp, int dstIp, int srcPort, int dstPort, ByteBuffer buffer, int offset,
            int length) {
        lastMatch = Match.NONE;
        if (length < Bth.LENGTH + Icrc.LENGTH) {
            return false;
        }
        int received = Icrc.stored(buffer, offset, length);
        int expected = icrc.computeIpv4(srcIp, dstIp, Icrc.IPV4_DEFAULT_ID, Icrc.IPV4_FLAGS_DF, srcPort, dstPort,
                buffer, offset, length);
        if (received == expected) {
            return matched(Match.ID_ZERO, 0, Icrc.IPV4_FLAGS_DF);
        }
        if (policy == Ipv4IdPolicy.ID_ZERO_ONLY) {
            return false;
        }
        // w = the bytes (ID hi, ID lo, flags hi, flags lo) XORed onto the ID-0/DF header, read
        // little-endian: in CRC32's reflected form byte i of a message occupies bits 8i..8i+7.
        int w = Crc32Poly.multiplyMod(received ^ expected, inverseShift(length));
        int idFlags = w ^ (Icrc.IPV4_FLAGS_DF >>> 8) << 16;
        int flags = (idFlags >>> 16 & 0xFF) << 8 | idFlags >>> 24;
        if (flags != Icrc.IPV4_FLAGS_DF && (flags != 0 || policy != Ipv4IdPolicy.ANY_ID)) {
            return false;
        }
        return matched(Match.SOLVED, (idFlags & 0xFF) << 8 | (idFlags >>> 8 & 0xFF), flags);
    }

    /** Exact check of an IPv6 packet; addresses are 16 bytes. */
    public boolean verifyIpv6(byte[] srcIp, byte[] dstIp, int srcPort, int dstPort, ByteBuffer buffer, int offset,
            int length) {
        lastMatch = icrc.verifyIpv6(srcIp, dstIp, srcPort, dstPort, buffer, offset, length) ? Match.IPV6 : Match.NONE;
        return lastMatch != Match.NONE;
    }

    /** How the last packet verified; {@link Match#NONE} if it did not. */
    public Match lastMatch() {
        return lastMatch;
    }

    /** IPv4 identification the last verified IPv4 packet was sent with. */
    public int lastIpId() {
        return lastIpId;
    }

    public Ipv4IdPolicy policy() {
        return policy;
    }

    /** IPv4 flags word (0x4000 or 0) the last verified IPv4 packet was sent with. */
    public int lastIpFlags() {
        return lastIpFlags;
    }

    private boolean matched(Match match, int ipId, int ipFlags) {
        lastMatch = match;
        lastIpId = ipId;
        lastIpFlags = ipFlags;
        return true;
    }

    /**
     * x^-(32 + 8k) mod P, where k counts the CRC input bytes after the flags word: the rest of
     * the IPv4 header, the UDP header, and the UDP payload up to the ICRC.
     */
    private int inverseShift(int udpPayloadLength) {
        int slot = udpPayloadLength & (CACHE_SIZE - 1);
        if (cachedLength[slot] != udpPayloadLength) {
            int k = FIXED_TAIL + udpPayloadLength;
            cachedInverse[slot] = Crc32Poly.xInversePow(32 + 8 * k);
            cachedLength[slot] = udpPayloadLength;
        }
        return cachedInverse[slot];
    }
}
