package org.jrdma.soft;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A soft device's counters, shared with other processes the way a NIC's are. A NIC's counters
 * belong to the device, and {@code ibv_devinfo}/{@code rdma statistic} read them from any
 * process; a soft device lives inside each process that opens it, so each process maps a small
 * file, {@code <device>.<pid>.cnt}, in the stats directory and its engine counts straight into
 * it. A reader ({@link #read}) sums the files of live processes and a {@code <device>.retired}
 * total that closed or dead processes are folded into — so the figures run from the creation of
 * the directory (on {@code /dev/shm}, from boot), as a kernel device's run from module load.
 *
 * <p>The directory is {@code $JRDMA_STATS_DIR} (or {@code -Djrdma.stats.dir}), else
 * {@code /dev/shm/jrdma-<user>}, else {@code <tmpdir>/jrdma-<user>}, created owner-only;
 * {@code off} turns sharing off. When the file cannot be made the counters stay private and the
 * device works as before — counting must never stop traffic.
 *
 * <p>File layout (native byte order, this host only): magic {@code "JRDMACNT"} u64, version u32,
 * header size u32, pid u64, process start (epoch ms) u64, counter count u32, 4 zero bytes, then
 * the counter names in UTF-8 separated by {@code '\n'}; from the header size on, one u64 per
 * counter. Names travel with the values so that two jrdma versions can share a directory.
 */
final class CounterFile implements AutoCloseable {
    static final String ENV = "JRDMA_STATS_DIR";
    static final String PROPERTY = "jrdma.stats.dir";
    private static final long MAGIC = 0x544e_4341_4d44_524aL; // "JRDMACNT" read as a little-endian u64
    private static final int VERSION = 1;
    private static final int NAMES_OFFSET = 40;
    private static final String SUFFIX = ".cnt";
    private static final String RETIRED = ".retired";
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** FileLock is per process; threads of one JVM take this first. */
    private static final Object JVM_LOCK = new Object();

    private final Path file;
    private final String device;
    private final MemorySegment values;
    private final List<String> names;

    private CounterFile(Path file, String device, MemorySegment values, List<String> names) {
        this.file = file;
        this.device = device;
        this.values = values;
        this.names = names;
    }

    /** Where counter files go, or empty when sharing is off. */
    static Optional<Path> directory() {
        String configured = System.getProperty(PROPERTY, System.getenv(ENV));
        if (configured != null && !configured.isBlank()) {
            return configured.equals("off") ? Optional.empty() : Optional.of(Path.of(configured));
        }
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        Path shm = Path.of("/dev/shm");
        Path base = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return Optional.of(base.resolve("jrdma-" + user));
    }

    /**
     * Creates and maps this process's file for {@code device}, zeroed, with room for
     * {@code names.size()} counters; empty (and a message) when that is not possible.
     */
    static Optional<CounterFile> create(String device, List<String> names) {
        return directory().flatMap(dir -> create(dir, device, names));
    }

    static Optional<CounterFile> create(Path dir, String device, List<String> names) {
        ProcessHandle self = ProcessHandle.current();
        Path file = dir.resolve(safe(device) + "." + self.pid() + SUFFIX);
        byte[] nameBytes = String.join("\n", names).getBytes(StandardCharsets.UTF_8);
        long headerSize = align(NAMES_OFFSET + nameBytes.length, 64);
        long size = headerSize + (long) names.size() * Long.BYTES;
        // An automatic arena: the mapping lives as long as the engine can reach it, so a late
        // increment after close() lands in the unlinked file instead of failing.
        Arena arena = Arena.ofAuto();
        try {
            createDirectory(dir);
            MemorySegment map;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                map = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            }
            map.set(ValueLayout.JAVA_INT, 8, VERSION);
            map.set(ValueLayout.JAVA_INT, 12, (int) headerSize);
            map.set(ValueLayout.JAVA_LONG, 16, self.pid());
            map.set(ValueLayout.JAVA_LONG, 24, startMillis(self));
            map.set(ValueLayout.JAVA_INT, 32, names.size());
            MemorySegment.copy(nameBytes, 0, map, ValueLayout.JAVA_BYTE, NAMES_OFFSET, nameBytes.length);
            LONG.setRelease(map, 0L, MAGIC); // last: a reader never sees a half-written header
            return Optional.of(new CounterFile(file, device, map.asSlice(headerSize), List.copyOf(names)));
        } catch (IOException | RuntimeException e) {
            System.err.println("jrdma-soft " + device + ": counters stay private to this process (" + file + ": " + e + ")");
            return Optional.empty();
        }
    }

    /** The counter slots, one u64 per name, for {@link org.jrdma.soft.stage.Counters}. */
    MemorySegment values() {
        return values;
    }

    /** The device's counters on this host: live processes plus the retired total. */
    static Map<String, Long> read(String device) {
        return directory().map(dir -> read(dir, device)).orElseGet(LinkedHashMap::new);
    }

    static Map<String, Long> read(Path dir, String device) {
        Map<String, Long> total = new LinkedHashMap<>();
        if (!Files.isDirectory(dir)) {
            return total;
        }
        try {
            withLock(dir, device, () -> {
                Map<String, Long> retired = readRetired(dir, device);
                boolean changed = false;
                for (Path f : files(dir, device)) {
                    Optional<Snapshot> s = Snapshot.of(f);
                    if (s.isEmpty()) {
                        if (!writerAlive(f)) {
                            Files.deleteIfExists(f); // a process died while creating it
                        }
                        continue;
                    }
                    if (s.get().alive()) {
                        addAll(total, s.get().counters());
                    } else {
                        addAll(retired, s.get().counters()); // died without closing: keep its counts
                        Files.deleteIfExists(f);
                        changed = true;
                    }
                }
                if (changed) {
                    writeRetired(dir, device, retired);
                }
                addAll(total, retired);
            });
        } catch (IOException e) {
            System.err.println("jrdma-soft " + device + ": cannot read shared counters: " + e);
        }
        return total;
    }

    /** The device is closed in this process: fold its counts into the retired total, remove the file. */
    @Override
    public void close() {
        Path dir = file.getParent();
        try {
            withLock(dir, device, () -> {
                Map<String, Long> retired = readRetired(dir, device);
                for (int i = 0; i < names.size(); i++) {
                    retired.merge(names.get(i), (long) LONG.getVolatile(values, (long) i * Long.BYTES), Long::sum);
                }
                writeRetired(dir, device, retired);
                Files.deleteIfExists(file);
            });
        } catch (IOException e) {
            System.err.println("jrdma-soft " + device + ": cannot retire counters: " + e);
        }
    }

    // ------------------------------------------------------------------ helpers

    private record Snapshot(long pid, long start, Map<String, Long> counters) {
        static Optional<Snapshot> of(Path f) throws IOException {
            try (Arena a = Arena.ofConfined(); FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                long size = ch.size();
                if (size < NAMES_OFFSET) {
                    return Optional.empty();
                }
                MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, a);
                if ((long) LONG.getAcquire(m, 0L) != MAGIC || m.get(ValueLayout.JAVA_INT, 8) != VERSION) {
                    return Optional.empty(); // being created, or not ours
                }
                int header = m.get(ValueLayout.JAVA_INT, 12);
                int count = m.get(ValueLayout.JAVA_INT, 32);
                if (header < NAMES_OFFSET || count < 0 || header + (long) count * Long.BYTES > size) {
                    return Optional.empty();
                }
                byte[] raw = m.asSlice(NAMES_OFFSET, header - NAMES_OFFSET).toArray(ValueLayout.JAVA_BYTE);
                String[] names = new String(raw, StandardCharsets.UTF_8).replace("\0", "").split("\n");
                Map<String, Long> c = new LinkedHashMap<>();
                for (int i = 0; i < Math.min(count, names.length); i++) {
                    c.put(names[i], (long) LONG.getVolatile(m, header + (long) i * Long.BYTES));
                }
                return Optional.of(new Snapshot(m.get(ValueLayout.JAVA_LONG, 16), m.get(ValueLayout.JAVA_LONG, 24), c));
            } catch (java.nio.file.NoSuchFileException e) {
                return Optional.empty(); // retired while we listed
            }
        }

        /** The writing process still runs (the start time guards against a reused pid). */
        boolean alive() {
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .map(p -> Math.abs(startMillis(p) - start) < 2_000).orElse(false);
        }
    }

    private interface LockedWork {
        void run() throws IOException;
    }

    private static void withLock(Path dir, String device, LockedWork work) throws IOException {
        synchronized (JVM_LOCK) {
            try (FileChannel ch = FileChannel.open(dir.resolve(safe(device) + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock ignored = ch.lock()) {
                work.run();
            }
        }
    }

    private static List<Path> files(Path dir, String device) throws IOException {
        List<Path> out = new ArrayList<>();
        String prefix = safe(device) + ".";
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, prefix + "*" + SUFFIX)) {
            for (Path p : ds) {
                String middle = p.getFileName().toString();
                middle = middle.substring(prefix.length(), middle.length() - SUFFIX.length());
                if (middle.chars().allMatch(Character::isDigit)) { // "<device>.<pid>.cnt" exactly
                    out.add(p);
                }
            }
        }
        return out;
    }

    private static boolean writerAlive(Path f) {
        String name = f.getFileName().toString();
        String pid = name.substring(0, name.length() - SUFFIX.length());
        pid = pid.substring(pid.lastIndexOf('.') + 1);
        return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
    }

    private static Map<String, Long> readRetired(Path dir, String device) throws IOException {
        Map<String, Long> m = new LinkedHashMap<>();
        Path f = dir.resolve(safe(device) + RETIRED);
        if (Files.exists(f)) {
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    try {
                        m.merge(line.substring(0, eq), Long.parseLong(line.substring(eq + 1).trim()), Long::sum);
                    } catch (NumberFormatException e) {
                        // a damaged line loses its counter, not the others
                    }
                }
            }
        }
        return m;
    }

    private static void writeRetired(Path dir, String device, Map<String, Long> m) throws IOException {
        StringBuilder sb = new StringBuilder();
        m.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        Path f = dir.resolve(safe(device) + RETIRED);
        Path tmp = dir.resolve(safe(device) + RETIRED + ".tmp");
        Files.writeString(tmp, sb, StandardCharsets.UTF_8);
        try {
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void addAll(Map<String, Long> into, Map<String, Long> from) {
        from.forEach((k, v) -> into.merge(k, v, Long::sum));
    }

    private static void createDirectory(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (UnsupportedOperationException e) {
            Files.createDirectories(dir);
        }
    }

    private static long startMillis(ProcessHandle p) {
        return p.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
    }

    private static long align(long n, long to) {
        return (n + to - 1) / to * to;
    }

    /** Device names come from the environment; keep them to safe file-name characters. */
    static String safe(String device) {
        return device.replaceAll("[^A-Za-z0-9_-]", "_");
    }
}
