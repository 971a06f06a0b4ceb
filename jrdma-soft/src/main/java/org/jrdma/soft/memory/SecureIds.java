package org.jrdma.soft.memory;

import java.security.SecureRandom;

/**
 * Unpredictable identifiers (RELIABILITY-SECURITY SEC-01…SEC-05): ReDMArk showed sequential
 * QPNs and rkeys with 0–2 bits of entropy let an off-path attacker guess them, so every QPN,
 * memory key and initial PSN comes from one {@link SecureRandom}.
 */
public final class SecureIds {
    private static final SecureRandom RANDOM = new SecureRandom();

    private SecureIds() {
    }

    /** A 24-bit QPN that is never 0, 1 (special QPs) or 0xFFFFFF (multicast). */
    public static int qpn() {
        int q;
        do {
            q = RANDOM.nextInt() & 0xFFFFFF;
        } while (q <= 1 || q == 0xFFFFFF);
        return q;
    }

    /** A 32-bit memory key; 0 is reserved so that an unset key never matches. */
    public static int memoryKey() {
        int k;
        do {
            k = RANDOM.nextInt();
        } while (k == 0);
        return k;
    }

    /** A 24-bit initial PSN. */
    public static int psn() {
        return RANDOM.nextInt() & 0xFFFFFF;
    }
}
