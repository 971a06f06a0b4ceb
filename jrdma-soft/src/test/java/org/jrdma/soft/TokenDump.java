package org.jrdma.soft;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QueuePair;

/**
 * A "process" for SEC-02: opens a fresh soft device and prints, one per line, the rkeys of
 * {@code n} registrations ("r <hex>") and the QPNs of {@code n} QPs ("q <hex>"), each freed
 * right after, as a restarted application with the same configuration would draw them.
 */
public final class TokenDump {
    private TokenDump() {
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        StringBuilder out = new StringBuilder();
        dump(FreshDevices.fresh("dump"), n, out);
        System.out.print(out);
        System.out.flush();
    }

    static void dump(SoftDevice device, int n, StringBuilder out) {
        try (Context ctx = device.open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            MemorySegment buf = arena.allocate(64, 64);
            for (int i = 0; i < n; i++) {
                var mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ);
                out.append("r ").append(Integer.toHexString(mr.rkey())).append('\n');
                mr.close();
            }
            CompletionQueue cq = ctx.createCq(4, null);
            for (int i = 0; i < n; i++) {
                QueuePair qp = pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(1, 1, 1, 1, 0)));
                out.append("q ").append(Integer.toHexString(qp.qpNum())).append('\n');
                qp.close();
            }
        }
    }
}
