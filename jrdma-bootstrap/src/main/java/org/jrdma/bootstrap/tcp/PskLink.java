package org.jrdma.bootstrap.tcp;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jrdma.bootstrap.AuthenticationException;

/**
 * The channel after a successful {@link PskHandshake}: every message is sealed with
 * AES-256-GCM under the key of its direction, the 12-byte nonce is the message's sequence
 * number in that direction (so reordering, dropping or replaying a message fails its tag), and
 * the handshake transcript hash is associated data (so a message cannot be moved into another
 * session). A message of n bytes takes n + 16 on the wire; sizes stay fixed, so nothing is
 * allocated from a length the peer chose (OOB-02).
 */
final class PskLink implements Link {
    static final int TAG_BYTES = 16;

    private final MessageChannel channel;
    private final SecretKeySpec sendKey;
    private final SecretKeySpec receiveKey;
    private final byte[] transcriptHash;
    private long sent;
    private long received;

    PskLink(MessageChannel channel, byte[] sendKey, byte[] receiveKey, byte[] transcriptHash) {
        this.channel = channel;
        this.sendKey = new SecretKeySpec(sendKey, "AES");
        this.receiveKey = new SecretKeySpec(receiveKey, "AES");
        this.transcriptHash = transcriptHash;
        Arrays.fill(sendKey, (byte) 0);
        Arrays.fill(receiveKey, (byte) 0);
    }

    @Override
    public void writeAll(byte[] bytes, Duration timeout, String what) {
        channel.writeAll(crypt(Cipher.ENCRYPT_MODE, sendKey, sent++, bytes), timeout, what + " (sealed)");
    }

    @Override
    public void readExactly(byte[] into, Duration timeout, String what, PrefixCheck check) {
        byte[] sealed = new byte[into.length + TAG_BYTES];
        channel.readExactly(sealed, timeout, what + " (sealed)", (b, n) -> { });
        byte[] plain = crypt(Cipher.DECRYPT_MODE, receiveKey, received++, sealed);
        check.check(plain, plain.length);
        System.arraycopy(plain, 0, into, 0, into.length);
    }

    private byte[] crypt(int mode, SecretKeySpec key, long sequence, byte[] input) {
        byte[] iv = ByteBuffer.allocate(12).putInt(0).putLong(sequence).array();
        try {
            Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
            gcm.init(mode, key, new GCMParameterSpec(TAG_BYTES * 8, iv));
            gcm.updateAAD(transcriptHash);
            return gcm.doFinal(input);
        } catch (AEADBadTagException e) {
            throw new AuthenticationException.BadMac("message " + sequence + " from the peer fails its AES-GCM tag:"
                    + " changed, reordered or replayed on the way");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is a required JDK algorithm", e);
        }
    }

    @Override
    public java.net.InetAddress peerInetAddress() {
        return channel.peerInetAddress();
    }

    @Override
    public String peerAddress() {
        return channel.peerAddress();
    }

    @Override
    public void close() {
        channel.close();
    }
}
