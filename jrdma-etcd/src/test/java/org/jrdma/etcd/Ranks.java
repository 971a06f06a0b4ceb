package org.jrdma.etcd;

import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.verbs.Gid;

/** Connection infos that say who wrote them for whom, and ranks run as threads. */
final class Ranks {
    private Ranks() {
    }

    /** What rank {@code from} publishes for rank {@code to} in run {@code run}: every field tells them apart. */
    static ConnInfo info(int run, int from, int to) {
        byte[] ip = {10, (byte) run, (byte) from, (byte) to};
        try {
            return new ConnInfo(from + 1, 0x100 + (from << 10) + to, (run << 20) + (from << 10) + to,
                    Gid.of(InetAddress.getByAddress(ip)));
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** Everything rank {@code from} publishes in a job of {@code size}. */
    static Map<Integer, ConnInfo> forPeers(int run, int from, int size) {
        Map<Integer, ConnInfo> m = new LinkedHashMap<>();
        for (int to = 0; to < size; to++) {
            if (to != from) {
                m.put(to, info(run, from, to));
            }
        }
        return m;
    }

    /** What rank {@code to} must receive. */
    static Map<Integer, ConnInfo> expectedFor(int run, int to, int size) {
        Map<Integer, ConnInfo> m = new LinkedHashMap<>();
        for (int from = 0; from < size; from++) {
            if (from != to) {
                m.put(from, info(run, from, to));
            }
        }
        return m;
    }

    static ExecutorService threads() {
        return Executors.newCachedThreadPool();
    }
}
