package org.jrdma.soft.engine;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
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
 * {@code off} turns sharing off. When the file cannot be made — the directory is full, missing
 * and not creatable, or read-only — the counters stay private, the process says so once per
 * directory, and nothing is left behind: counting must never stop traffic.
 *
 * <p>What stays in the directory: a {@code <device>.retired} only for a device that counted
 * something (opening and closing a device leaves nothing), and one {@code counters.lock} for
 * the whole directory, made the first time totals are folded. Devices that no other process
 * can name (chaos runs, tests) keep their counters private ({@code SoftOptions.privateCounters()}),
 * so a run on fresh addresses does not leave a file per device name.
 *
 * <p>File layout (native byte order, this host only): magic {@code "JRDMACNT"} u64, version u32,
 * header size u32, pid u64, process start (epoch ms) u64, counter count u32, 4 zero bytes, then
 * the counter names in UTF-8 separated by {@code '\n'}; from the header size on, one u64 per
 * counter. Names travel with the values so that two jrdma versions can share a directory.
 *
 * <p>Over 400 lines because the format, the writer, the reader and the folding of dead
 * processes' totals share the layout and one file lock; a split would spread the format over
 * files that must change together (and a third of this file is its description).
 */
public final class CounterFile implements AutoCloseable {
    public static final String ENV = "JRDMA_STATS_DIR";
    static final String PROPERTY = "jrdma.stats.dir";
    /** The one lock file of a directory: folding a total into {@code <device>.retired} is read-modify-write. */
    public static final String LOCK = "counters.lock";
    private static final long MAGIC = 0x544e_4341_4d44_524aL; // "JRDMACNT" read as a little-endian u64
    private static final int VERSION = 1;
    private static final int NAMES_OFFSET = 40;
    /** A counter file is about a kilobyte; anything much larger in the directory is not ours. */
    private static final int MAX_FILE_BYTES = 1 << 20;
    private static final String SUFFIX = ".cnt";
    private static final String RETIRED = ".retired";
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final System.Logger LOG = System.getLogger("org.jrdma.soft.counters");
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
    public static Optional<Path> directory() {
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
     * Creates and maps this process's file for {@code device} in {@code dir}, zeroed, with room
     * for {@code names.size()} counters; empty (and a warning, once per directory) when that is
     * not possible.
     */
    public static Optional<CounterFile> create(Path dir, String device, List<String> names) {
        ProcessHandle self = ProcessHandle.current();
        Path file = dir.resolve(safe(device) + "." + self.pid() + SUFFIX);
        byte[] nameBytes = String.join("\n", names).getBytes(StandardCharsets.UTF_8);
        int headerSize = (int) align(NAMES_OFFSET + nameBytes.length, 64);
        int size = headerSize + names.size() * Long.BYTES;
        ByteBuffer image = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        image.putLong(0, 0L) // the magic comes last, through the mapping: a reader never sees a half-made file
                .putInt(8, VERSION).putInt(12, headerSize).putLong(16, self.pid()).putLong(24, startMillis(self))
                .putInt(32, names.size()).put(NAMES_OFFSET, nameBytes);
        // An automatic arena: the mapping lives as long as the engine can reach it, so a late
        // increment after close() lands in the unlinked file instead of failing.
        Arena arena = Arena.ofAuto();
        boolean made = false;
        try {
            createDirectory(dir);
            String untrusted = untrusted(dir);
            if (untrusted != null) {
                FileTrouble.warnOnce(LOG, "counters " + dir, "jrdma-soft: device counters stay private to this process:"
                        + " the stats directory " + dir + " " + untrusted + "; remove it (it is made again, owner-only),"
                        + " or point " + ENV + " at a directory of your own (off: no sharing)");
                return Optional.empty();
            }
            MemorySegment map;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                made = true;
                // Every byte is written before the file is mapped, so the filesystem has given
                // the file its pages now, or said ENOSPC here. Mapping a file whose pages a full
                // tmpfs cannot supply turns the first store into SIGBUS — a JVM InternalError in
                // whatever thread counts — which is what a full /dev/shm used to do.
                while (image.hasRemaining()) {
                    ch.write(image, image.position());
                }
                map = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            }
            LONG.setRelease(map, 0L, MAGIC);
            return Optional.of(new CounterFile(file, device, map.asSlice(headerSize), List.copyOf(names)));
        } catch (IOException | RuntimeException e) {
            if (made) {
                deleteQuietly(file);
            }
            String why = reason(e);
            FileTrouble.warnOnce(LOG, "counters " + dir, "jrdma-soft: device counters stay private to this process"
                    + " (devinfo -v in another process will not see them): cannot create " + file + ": " + why + "; "
                    + (why.contains("No space") ? "free space in " + dir : "make " + dir + " a writable directory")
                    + ", or point " + ENV + " at another one (off: no sharing)");
            return Optional.empty();
        }
    }

    /** The counter slots, one u64 per name, for {@link org.jrdma.soft.transport.Counters}. */
    public MemorySegment values() {
        return values;
    }

    /**
     * The device's counters on this host: live processes plus the retired total. Files of dead
     * processes are folded into the total (under the directory's lock); in a directory this
     * process may not write, they are only added in.
     */
    public static Map<String, Long> read(Path dir, String device) {
        if (!Files.isDirectory(dir)) {
            return new LinkedHashMap<>();
        }
        try {
            Scan s = Scan.of(dir, device);
            if (s.dead.isEmpty() || untrusted(dir) != null) {
                return s.total(); // nothing to fold, or a directory this process must not write in
            }
            try {
                return withLock(dir, () -> {
                    Scan locked = Scan.of(dir, device);
                    locked.foldDead(dir, device);
                    return locked.total();
                });
            } catch (IOException e) {
                FileTrouble.warnOnce(LOG, "fold " + dir, "jrdma-soft " + device + ": cannot fold the counters of ended"
                        + " processes into " + dir.resolve(safe(device) + RETIRED) + ": " + reason(e) + " (they are still counted)");
                return s.total();
            }
        } catch (IOException e) {
            FileTrouble.warnOnce(LOG, "read " + dir, "jrdma-soft " + device + ": cannot read the shared counters in "
                    + dir + ": " + reason(e));
            return new LinkedHashMap<>();
        }
    }

    /**
     * The device is closed in this process: fold its counts into the retired total and remove
     * the file. A device that counted nothing leaves nothing. When the total cannot be written
     * (a full directory), this process's counts are lost, with a warning, and the file still goes.
     */
    @Override
    public void close() {
        Map<String, Long> mine = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            mine.merge(names.get(i), (long) LONG.getVolatile(values, (long) i * Long.BYTES), Long::sum);
        }
        Path dir = file.getParent();
        try {
            if (!allZero(mine)) {
                withLock(dir, () -> {
                    Map<String, Long> retired = readRetired(dir, device);
                    addAll(retired, mine);
                    writeRetired(dir, device, retired);
                    return null;
                });
            }
        } catch (IOException e) {
            FileTrouble.warnOnce(LOG, "retire " + dir, "jrdma-soft " + device + ": the counts of this process are not kept"
                    + " in the host total: cannot write " + dir.resolve(safe(device) + RETIRED) + ": " + reason(e));
        } finally {
            deleteQuietly(file);
        }
    }

    // ------------------------------------------------------------------ helpers

    /** One pass over a device's files: live processes' counters, the dead ones' files, the retired total. */
    private record Scan(Map<String, Long> live, List<Dead> dead, Map<String, Long> retired) {
        static Scan of(Path dir, String device) throws IOException {
            Map<String, Long> live = new LinkedHashMap<>();
            List<Dead> dead = new ArrayList<>();
            for (Path f : files(dir, device)) {
                Optional<Snapshot> s = Snapshot.of(f);
                if (s.isEmpty()) {
                    if (!writerAlive(f)) {
                        dead.add(new Dead(f, Map.of())); // a process died while creating it, or not ours
                    }
                } else if (s.get().alive()) {
                    addAll(live, s.get().counters());
                } else {
                    dead.add(new Dead(f, s.get().counters())); // died without closing: keep its counts
                }
            }
            return new Scan(live, dead, readRetired(dir, device));
        }

        /** Moves the dead processes' counts into the retired total and removes their files (directory lock held). */
        void foldDead(Path dir, String device) throws IOException {
            Map<String, Long> before = new LinkedHashMap<>(retired);
            dead.forEach(d -> addAll(retired, d.counters()));
            if (!retired.equals(before) && !allZero(retired)) {
                writeRetired(dir, device, retired);
            }
            for (Dead d : dead) {
                Files.deleteIfExists(d.file());
            }
            dead.clear();
        }

        Map<String, Long> total() {
            Map<String, Long> t = new LinkedHashMap<>(live);
            dead.forEach(d -> addAll(t, d.counters()));
            addAll(t, retired);
            return t;
        }
    }

    private record Dead(Path file, Map<String, Long> counters) {
    }

    private record Snapshot(long pid, long start, Map<String, Long> counters) {
        /**
         * Reads a counter file with read(2), not a mapping: a file that shrinks or sits on a
         * failing filesystem gives a short read or an error here, never a fault. A counter
         * caught in the middle of an increment is the only thing a reader may get slightly off.
         */
        static Optional<Snapshot> of(Path f) throws IOException {
            ByteBuffer m;
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                long size = ch.size();
                if (size < NAMES_OFFSET || size > MAX_FILE_BYTES) {
                    return Optional.empty();
                }
                m = ByteBuffer.allocate((int) size).order(ByteOrder.nativeOrder());
                while (m.hasRemaining() && ch.read(m, m.position()) > 0) {
                    // read what is there
                }
            } catch (NoSuchFileException e) {
                return Optional.empty(); // retired while we listed
            }
            int size = m.position();
            if (size < NAMES_OFFSET || m.getLong(0) != MAGIC || m.getInt(8) != VERSION) {
                return Optional.empty(); // being created, or not ours
            }
            int header = m.getInt(12);
            int count = m.getInt(32);
            if (header < NAMES_OFFSET || count < 0 || header + (long) count * Long.BYTES > size) {
                return Optional.empty();
            }
            byte[] raw = new byte[header - NAMES_OFFSET];
            m.get(NAMES_OFFSET, raw);
            String[] names = new String(raw, StandardCharsets.UTF_8).replace("\0", "").split("\n");
            Map<String, Long> c = new LinkedHashMap<>();
            for (int i = 0; i < Math.min(count, names.length); i++) {
                c.merge(names[i], m.getLong(header + i * Long.BYTES), Long::sum);
            }
            return Optional.of(new Snapshot(m.getLong(16), m.getLong(24), c));
        }

        /** The writing process still runs (the start time guards against a reused pid). */
        boolean alive() {
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .map(p -> Math.abs(startMillis(p) - start) < 2_000).orElse(false);
        }
    }

    private interface LockedWork<T> {
        T run() throws IOException;
    }

    private static <T> T withLock(Path dir, LockedWork<T> work) throws IOException {
        synchronized (JVM_LOCK) {
            try (FileChannel ch = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
                    FileLock ignored = ch.lock()) {
                return work.run();
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
                if (!middle.isEmpty() && middle.length() < 19 && middle.chars().allMatch(Character::isDigit)) {
                    out.add(p); // "<device>.<pid>.cnt" exactly
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
        List<String> lines;
        try {
            lines = Files.readAllLines(f, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return m;
        } catch (java.nio.charset.CharacterCodingException e) {
            return m; // damaged beyond reading: the total starts again
        }
        for (String line : lines) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                try {
                    m.merge(line.substring(0, eq), Long.parseLong(line.substring(eq + 1).trim()), Long::sum);
                } catch (NumberFormatException e) {
                    // a damaged line loses its counter, not the others
                }
            }
        }
        return m;
    }

    /** Replaces the retired total atomically (a reader sees the old file or the new one); no temporary is left on failure. */
    private static void writeRetired(Path dir, String device, Map<String, Long> m) throws IOException {
        StringBuilder sb = new StringBuilder();
        m.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        Path f = dir.resolve(safe(device) + RETIRED);
        Path tmp = dir.resolve(safe(device) + RETIRED + ".tmp");
        try {
            Files.writeString(tmp, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            try {
                Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            deleteQuietly(tmp);
        }
    }

    private static boolean allZero(Map<String, Long> m) {
        return m.values().stream().allMatch(v -> v == 0);
    }

    private static void addAll(Map<String, Long> into, Map<String, Long> from) {
        from.forEach((k, v) -> into.merge(k, v, Long::sum));
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            // nothing more to do: the directory itself is failing, and the caller has said so
        }
    }

    private static String reason(Exception e) {
        return e instanceof IOException io ? FileTrouble.reason(io) : e.toString();
    }

    /**
     * Why {@code dir} must not hold this process's counter files, or null when it may: it must be
     * a directory, not a symbolic link, owned by this user and writable by no one else. /dev/shm
     * is every user's: anyone may make {@code /dev/shm/jrdma-<you>} before you do, and in a
     * directory others can write, a link planted under a name this process will open
     * ({@code <device>.<pid>.cnt}) would have it truncate and overwrite whatever the link points to.
     */
    static String untrusted(Path dir) {
        Map<String, Object> a;
        int self;
        try {
            a = Files.readAttributes(dir, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
            self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid"); // /proc/<pid> belongs to our euid
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException e) {
            return null; // not Linux: no owners to compare; the directory itself was made owner-only
        }
        int mode = (Integer) a.get("mode");
        int uid = (Integer) a.get("uid");
        if ((mode & 0170000) != 0040000) {
            return (mode & 0170000) == 0120000 ? "is a symbolic link" : "is not a directory";
        }
        if (uid != self) {
            return "belongs to uid " + uid + ", not to this process's uid " + self;
        }
        if ((mode & 0022) != 0) {
            String who = (mode & 0020) == 0 ? "others" : (mode & 0002) == 0 ? "its group" : "its group and others";
            return String.format("may be written by %s (mode %o)", who, mode & 07777);
        }
        return null;
    }

    private static void createDirectory(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        if (Files.exists(dir)) {
            throw new java.nio.file.FileSystemException(dir.toString(), null, "Not a directory");
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

    /**
     * A device's name as a file-name part: letters, digits, '_', '-' and '.' as they are (the
     * characters JRDMA_SOFT_DEVICES and interface names allow), anything else — a '/' in a name
     * made in code — as {@code %XX} of its UTF-8 bytes. One to one, so that two devices never
     * share a file: "eth0.1" (a VLAN) and "eth0_1" (a second address) are two devices, and one
     * process opening both must not truncate the file it has mapped for the other.
     */
    public static String safe(String device) {
        StringBuilder sb = new StringBuilder(device.length());
        for (byte b : device.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
                    || (c == '.' && sb.length() > 0)) {
                sb.append(c);
            } else {
                sb.append('%').append(String.format("%02X", b & 0xFF));
            }
        }
        return sb.toString();
    }
}
