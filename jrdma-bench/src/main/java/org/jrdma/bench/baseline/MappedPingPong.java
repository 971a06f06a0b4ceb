package org.jrdma.bench.baseline;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * A ping-pong through a shared memory-mapped file, the same-host baseline of
 * {@code send_lat} and {@code write_lat --provider shm}: two processes map one file
 * ({@code FileChannel.map(…, arena)}) and busy-poll it. The client copies {@code --size}
 * bytes into the ping slot and then stores the round's number in the slot's flag (a release
 * store); the server spins on that flag (acquire loads), copies the bytes into the pong slot
 * and stores the number in its flag; the client spins on that and times the round trip. It is
 * what the shm provider does for a message, without the verbs: a copy into memory the peer maps
 * and a flag the peer polls. Nothing is allocated per round trip.
 *
 * <p>The server makes the file (in {@code /dev/shm} when there is one — memory-backed, as
 * the provider's memfd is, so no writeback touches the pages; else in the temporary
 * directory), maps it, and names it on its ready line; the client gets it as {@code --file}.
 * The two slots are {@value #SLOT_ALIGN} bytes apart at least, so the flags never share a
 * cache line (nor the adjacent line the prefetcher pairs with it).
 *
 * <pre>
 * server --size S --iters N [--warmup W] [--dir D]
 * client --file F --size S --iters N [--warmup W]
 * </pre>
 */
public final class MappedPingPong {
    static final String NAME = "mapped_pingpong";
    private static final Set<String> KEYS = Set.of("file", "dir", "size", "iters", "warmup");
    /** A slot: the flag (a long), then the payload from {@value #PAYLOAD} on. */
    static final long PAYLOAD = 64;
    static final long SLOT_ALIGN = 128;
    static final long PING = 0;
    /** A peer that stopped would otherwise leave the other spinning until the runner's deadline. */
    private static final long ROUND_DEADLINE_NANOS = 10_000_000_000L;
    /** The server's first ping waits for the client's JVM to start, which a loaded machine makes slow. */
    private static final long FIRST_PING_DEADLINE_NANOS = 120_000_000_000L;
    private static final int SPINS_PER_CLOCK_READ = 1024;
    private static final VarHandle FLAG = ValueLayout.JAVA_LONG.varHandle();

    private MappedPingPong() {
    }

    public static void main(String[] args) {
        BaselineProcess.run(NAME, args, () -> {
            BaselineArgs a = BaselineArgs.parse(args, KEYS);
            int size = a.positiveInt("size");
            int iters = a.positiveInt("iters");
            long warmup = a.nonNegativeLong("warmup", 0);
            if (a.isServer()) {
                echo(a, size, iters, warmup);
            } else {
                ping(a, size, iters, warmup);
            }
        });
    }

    /** Where the pong slot starts: after the ping slot's flag and payload, rounded up to {@value #SLOT_ALIGN}. */
    static long pongOffset(int size) {
        return (PAYLOAD + size + SLOT_ALIGN - 1) / SLOT_ALIGN * SLOT_ALIGN;
    }

    static long fileBytes(int size) {
        return 2 * pongOffset(size);
    }

    static Path directory(BaselineArgs a) {
        if (a.has("dir")) {
            return Path.of(a.string("dir", ""));
        }
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    private static void echo(BaselineArgs a, int size, int iters, long warmup) throws Exception {
        Path file = Files.createTempFile(directory(a), "jrdma-bench-pingpong-", ".map");
        file.toFile().deleteOnExit(); // also when stopped (SIGTERM: the runner's deadline), which skips the finally
        try (Arena arena = Arena.ofConfined();
                FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long pong = pongOffset(size);
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, fileBytes(size), arena);
            m.fill((byte) 0);
            BaselineProcess.readyFile(file.toString());
            long allocBefore = 0;
            for (long i = 0; i < warmup + iters; i++) {
                if (i == warmup) {
                    allocBefore = AllocCounter.now();
                }
                await(m, PING, i + 1, "ping", i == 0 ? FIRST_PING_DEADLINE_NANOS : ROUND_DEADLINE_NANOS);
                MemorySegment.copy(m, PING + PAYLOAD, m, pong + PAYLOAD, size);
                FLAG.setRelease(m, pong, i + 1);
            }
            long allocAfter = AllocCounter.now();
            BaselineProcess.result(new JsonLine().put("baseline", NAME).put("role", "server").put("size", size)
                    .put("echoed", warmup + iters).put("allocBytesPerOp", AllocCounter.perOp(allocBefore, allocAfter, iters)));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void ping(BaselineArgs a, int size, int iters, long warmup) throws Exception {
        if (!a.has("file")) {
            throw new IllegalArgumentException("--file is required (the server's ready line names it)");
        }
        Path file = Path.of(a.string("file", ""));
        try (Arena arena = Arena.ofConfined();
                FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long pong = pongOffset(size);
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, fileBytes(size), arena);
            MemorySegment out = arena.allocate(size, SLOT_ALIGN);
            for (long b = 0; b < size; b++) {
                out.set(ValueLayout.JAVA_BYTE, b, (byte) (b * 31 + 7));
            }
            BaselineProcess.started();
            long[] rtt = new long[iters];
            long allocBefore = 0;
            for (long i = 0; i < warmup + iters; i++) {
                if (i == warmup) {
                    allocBefore = AllocCounter.now();
                }
                long t0 = System.nanoTime();
                MemorySegment.copy(out, 0, m, PING + PAYLOAD, size);
                FLAG.setRelease(m, PING, i + 1);
                await(m, pong, i + 1, "pong", ROUND_DEADLINE_NANOS);
                long t1 = System.nanoTime();
                if (i >= warmup) {
                    rtt[(int) (i - warmup)] = t1 - t0;
                }
            }
            long allocAfter = AllocCounter.now();
            long mismatch = MemorySegment.mismatch(out, 0, size, m, pong + PAYLOAD, pong + PAYLOAD + size);
            if (mismatch >= 0) {
                throw new IllegalStateException("the echoed bytes differ from the sent ones at byte " + mismatch);
            }
            BaselineProcess.result(HalfRtt.summarize(rtt, new JsonLine().put("baseline", NAME).put("role", "client")
                    .put("size", size).put("iterations", iters))
                    .put("allocBytesPerOp", AllocCounter.perOp(allocBefore, allocAfter, iters)));
        }
    }

    /** Spins until the flag at {@code offset} says {@code round}; reads the clock once every 1,024 spins only. */
    private static void await(MemorySegment m, long offset, long round, String what, long deadlineNanos) {
        long since = 0;
        int spins = 0;
        while ((long) FLAG.getAcquire(m, offset) != round) {
            Thread.onSpinWait();
            if (++spins == SPINS_PER_CLOCK_READ) {
                spins = 0;
                long now = System.nanoTime();
                if (since == 0) {
                    since = now;
                } else if (now - since > deadlineNanos) {
                    throw new IllegalStateException("no " + what + " " + round + " within " + deadlineNanos / 1_000_000_000L
                            + " s (the peer stopped?)");
                }
            }
        }
    }
}
