package org.jrdma.bootstrap.tcp;

import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.Iterator;

/**
 * The peer nonces of this process's recent successful pre-shared-key handshakes, so that a
 * replayed handshake is named as a replay (OOB-10). Not what makes replays fail — the fresh
 * nonce of the side being replayed to does that — so a bounded memory is enough. Nonces are
 * remembered only after the peer's proof verified, so nobody can fill it without the key.
 */
final class NonceCache {
    static final int CAPACITY = 4096;
    private static final LinkedHashSet<ByteBuffer> SEEN = new LinkedHashSet<>();

    private NonceCache() {
    }

    static synchronized boolean seen(byte[] nonce) {
        return SEEN.contains(ByteBuffer.wrap(nonce.clone()));
    }

    static synchronized void remember(byte[] nonce) {
        SEEN.add(ByteBuffer.wrap(nonce.clone()));
        if (SEEN.size() > CAPACITY) {
            Iterator<ByteBuffer> oldest = SEEN.iterator();
            oldest.next();
            oldest.remove();
        }
    }

    /** For tests: a process that never saw the transcript (a restarted server). */
    static synchronized void forgetAll() {
        SEEN.clear();
    }
}
