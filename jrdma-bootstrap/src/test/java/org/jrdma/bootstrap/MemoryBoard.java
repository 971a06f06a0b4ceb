package org.jrdma.bootstrap;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jrdma.bootstrap.rendezvous.MissingRanksException;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.StoreTraffic;

/**
 * A rendezvous store in memory, for tests of what sits on top of the rendezvous API (RcMesh):
 * one board per job, ranks as threads, waits on the board's monitor with the spec's deadline.
 */
final class MemoryBoard {
    private final Map<Integer, Map<Integer, ConnInfo>> infoFor = new TreeMap<>();
    private final Map<String, List<Integer>> barriers = new TreeMap<>();
    private final int size;

    MemoryBoard(int size) {
        this.size = size;
    }

    Rendezvous join(int rank, Duration timeout) {
        RendezvousSpec spec = new RendezvousSpec("memory", rank, size, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        return new Rendezvous() {
            private boolean published;

            @Override
            public RendezvousSpec spec() {
                return spec;
            }

            @Override
            public long epoch() {
                return 1;
            }

            @Override
            public void publish(Map<Integer, ConnInfo> forPeers) {
                synchronized (MemoryBoard.this) {
                    forPeers.forEach((to, info) -> infoFor.computeIfAbsent(to, k -> new TreeMap<>()).put(rank, info));
                    published = true;
                    MemoryBoard.this.notifyAll();
                }
            }

            @Override
            public Map<Integer, ConnInfo> await() {
                synchronized (MemoryBoard.this) {
                    if (!published) {
                        throw new IllegalStateException("await before publish");
                    }
                    while (infoFor.getOrDefault(rank, Map.of()).size() < size - 1) {
                        waitUntil(deadline, "info", infoFor.getOrDefault(rank, Map.of()).keySet());
                    }
                    return new TreeMap<>(infoFor.get(rank));
                }
            }

            @Override
            public void barrier(String name) {
                synchronized (MemoryBoard.this) {
                    List<Integer> at = barriers.computeIfAbsent(name, k -> new ArrayList<>());
                    at.add(rank);
                    MemoryBoard.this.notifyAll();
                    while (at.size() < size) {
                        waitUntil(deadline, "barrier " + name, at);
                    }
                }
            }

            @Override
            public StoreTraffic traffic() {
                return StoreTraffic.NONE;
            }

            @Override
            public void close() {
            }

            private void waitUntil(long end, String what, java.util.Collection<Integer> came) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    List<Integer> never = new ArrayList<>();
                    for (int r = 0; r < size; r++) {
                        if (r != rank && !came.contains(r)) {
                            never.add(r);
                        }
                    }
                    throw new MissingRanksException("memory", 1, what, List.of(), never);
                }
                try {
                    MemoryBoard.this.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
        };
    }
}
