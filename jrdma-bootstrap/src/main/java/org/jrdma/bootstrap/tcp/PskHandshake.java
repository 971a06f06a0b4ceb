package org.jrdma.bootstrap.tcp;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jrdma.bootstrap.AuthenticationException;
import org.jrdma.bootstrap.Excerpt;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.VersionMismatchException;

/**
 * The pre-shared-key handshake (AUTH-01, OOB-10, OOB-11; README "Authenticated exchange").
 * Both sides write first and then read, as the plain exchange does, in two rounds:
 *
 * <pre>
 * hello (56 bytes):  "JRDMAPSK" | version u16 = 1 | role u8 (1 client, 2 server) | 5 zero bytes
 *                    | key id (8) = HMAC(psk, "jrdma-psk v1 key id")[0..8] | nonce (32, SecureRandom)
 * proof (32 bytes):  HMAC(k_auth, "jrdma-psk v1 client proof" or "... server proof" | th)
 *                    th = SHA-256(client hello | server hello)
 * keys:              prk = HMAC(salt = nonce_c | nonce_s, psk)          (HKDF-Extract, RFC 5869)
 *                    k_x = HMAC(prk, "jrdma-psk v1 " + x | 0x01)       (HKDF-Expand, one block)
 *                    for x in auth, c2s, s2c
 * </pre>
 *
 * Only after the peer's proof verified does a side send anything about its QP, and that travels
 * sealed by {@link PskLink} (AES-256-GCM, a key per direction, th as associated data), so a
 * passive listener never learns QPN, PSN or GID either. Freshness comes from both nonces: a
 * recorded transcript replayed to a new handshake meets a new peer nonce and its proof fails;
 * within one process the peer nonces of successful handshakes are also remembered, so a replay
 * is named as such. The key id lets a wrong key be reported as a wrong key rather than as
 * tampering; it reveals nothing a proof would not (both are HMACs of the key).
 */
final class PskHandshake {
    static final byte[] MAGIC = "JRDMAPSK".getBytes(US_ASCII);
    static final int VERSION = 1;
    static final int HELLO_BYTES = 56;
    static final int PROOF_BYTES = 32;
    static final int NONCE_BYTES = 32;
    private static final int KEY_ID_OFFSET = 16;
    private static final int NONCE_OFFSET = 24;
    private static final String PROTOCOL = "jrdma-psk";
    private static final SecureRandom RANDOM = new SecureRandom();

    private PskHandshake() {
    }

    /** Runs both rounds; returns the authenticated, sealing channel. Closes nothing on failure (the caller does). */
    static PskLink run(MessageChannel channel, Handshake.Role role, PreSharedKey psk, Duration timeout) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        byte[] mine = hello(role, keyId(psk), nonce);
        channel.writeAll(mine, timeout, "our " + PROTOCOL + " hello");
        byte[] theirs = new byte[HELLO_BYTES];
        channel.readExactly(theirs, timeout, "peer's " + PROTOCOL + " hello", PskHandshake::checkHelloPrefix);
        checkHello(theirs, role, mine);

        byte[] clientHello = role == Handshake.Role.CLIENT ? mine : theirs;
        byte[] serverHello = role == Handshake.Role.CLIENT ? theirs : mine;
        byte[] th = sha256(clientHello, serverHello);
        byte[] prk = hmac(concat(nonceOf(clientHello), nonceOf(serverHello)), psk.bytes());
        byte[] kAuth = expand(prk, "auth");

        Handshake.Role peer = role == Handshake.Role.CLIENT ? Handshake.Role.SERVER : Handshake.Role.CLIENT;
        channel.writeAll(proof(kAuth, role, th), timeout, "our " + PROTOCOL + " proof");
        byte[] theirProof = new byte[PROOF_BYTES];
        channel.readExactly(theirProof, timeout, "peer's " + PROTOCOL + " proof", (b, n) -> { });
        // Constant time: a comparison that stops at the first differing byte tells a forger how
        // many bytes of its guess were right (AUTH-01 metric).
        if (!MessageDigest.isEqual(theirProof, proof(kAuth, peer, th))) {
            throw new AuthenticationException.BadMac("the peer's " + PROTOCOL + " proof does not verify: the handshake"
                    + " was changed on the way (same key id, so not a wrong key)");
        }
        NonceCache.remember(nonceOf(theirs));
        byte[] kC2s = expand(prk, "c2s");
        byte[] kS2c = expand(prk, "s2c");
        Arrays.fill(prk, (byte) 0);
        Arrays.fill(kAuth, (byte) 0);
        return role == Handshake.Role.CLIENT ? new PskLink(channel, kC2s, kS2c, th) : new PskLink(channel, kS2c, kC2s, th);
    }

    static byte[] hello(Handshake.Role role, byte[] keyId, byte[] nonce) {
        ByteBuffer b = ByteBuffer.allocate(HELLO_BYTES);
        b.put(MAGIC).putShort((short) VERSION).put(roleByte(role)).put(new byte[5]).put(keyId).put(nonce);
        return b.array();
    }

    /** Refuses a foreign protocol (an HTTP request, a TLS ClientHello, rc_pingpong text) at its first wrong byte (OOB-06, AUTH-02). */
    static void checkHelloPrefix(byte[] partial, int length) {
        int n = Math.min(length, MAGIC.length);
        if (!Arrays.equals(partial, 0, n, MAGIC, 0, n)) {
            throw new AuthenticationException.Downgrade("the peer does not speak " + PROTOCOL + " (expected \"JRDMAPSK\", got "
                    + Excerpt.of(partial, 0, length) + "): is it running without --psk-file, or is it something else?");
        }
    }

    /** Validates the peer's hello in wire order; the version is checked before anything after it (OOB-07). */
    static void checkHello(byte[] theirs, Handshake.Role role, byte[] mine) {
        checkHelloPrefix(theirs, theirs.length);
        int version = ((theirs[8] & 0xFF) << 8) | (theirs[9] & 0xFF);
        if (version != VERSION) {
            throw new VersionMismatchException(PROTOCOL, VERSION, version);
        }
        byte expectedRole = roleByte(role == Handshake.Role.CLIENT ? Handshake.Role.SERVER : Handshake.Role.CLIENT);
        if (theirs[10] != expectedRole) {
            // A reflected hello (our own, sent back) or two clients or two servers.
            throw new MalformedMessageException("role", "the peer says role " + (theirs[10] & 0xFF) + ", expected "
                    + expectedRole + " (" + (expectedRole == 1 ? "client" : "server") + ")");
        }
        for (int i = 11; i < KEY_ID_OFFSET; i++) {
            if (theirs[i] != 0) {
                throw new MalformedMessageException("reserved", "byte " + i + " of the hello is 0x"
                        + Integer.toHexString(theirs[i] & 0xFF) + ", must be 0");
            }
        }
        if (!Arrays.equals(theirs, KEY_ID_OFFSET, NONCE_OFFSET, mine, KEY_ID_OFFSET, NONCE_OFFSET)) {
            throw new AuthenticationException.WrongKey("the peer holds a different pre-shared key (key id "
                    + HexFormat.of().formatHex(theirs, KEY_ID_OFFSET, NONCE_OFFSET) + ", ours "
                    + HexFormat.of().formatHex(mine, KEY_ID_OFFSET, NONCE_OFFSET) + ")");
        }
        if (Arrays.equals(theirs, NONCE_OFFSET, HELLO_BYTES, mine, NONCE_OFFSET, HELLO_BYTES)) {
            throw new AuthenticationException.Replay("the peer's nonce is ours: our own hello was reflected back");
        }
        if (NonceCache.seen(nonceOf(theirs))) {
            throw new AuthenticationException.Replay("the peer's nonce was already used by an earlier handshake:"
                    + " a recorded handshake is being replayed");
        }
    }

    static byte[] keyId(PreSharedKey psk) {
        return Arrays.copyOf(hmac(psk.bytes(), ascii(PROTOCOL + " v1 key id")), 8);
    }

    static byte[] proof(byte[] kAuth, Handshake.Role role, byte[] th) {
        return hmac(kAuth, concat(ascii(PROTOCOL + " v1 " + (role == Handshake.Role.CLIENT ? "client" : "server") + " proof"), th));
    }

    private static byte[] expand(byte[] prk, String label) {
        return hmac(prk, concat(ascii(PROTOCOL + " v1 " + label), new byte[] {1}));
    }

    private static byte roleByte(Handshake.Role role) {
        return (byte) (role == Handshake.Role.CLIENT ? 1 : 2);
    }

    private static byte[] nonceOf(byte[] hello) {
        return Arrays.copyOfRange(hello, NONCE_OFFSET, HELLO_BYTES);
    }

    static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is a required JDK algorithm", e);
        }
    }

    private static byte[] sha256(byte[] a, byte[] b) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(a);
            md.update(b);
            return md.digest();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is a required JDK algorithm", e);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(US_ASCII);
    }
}
