package org.jrdma.bootstrap.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jrdma.bootstrap.BootstrapException;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.bootstrap.rendezvous.MalformedEntryException;
import org.jrdma.bootstrap.rendezvous.MissingRanksException;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousException;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.StoreTraffic;
import org.jrdma.bootstrap.rendezvous.StoreUnavailableException;

/**
 * One rank's rendezvous in a {@link FileStore}'s directory. Waits are on the directories
 * involved ({@link DirWatch}); every wait also watches the job's directory, so a rank that
 * restarted (and so claimed a new epoch) moves the waiting ranks there: they join it and
 * publish again. A directory has no leases: a rank that closes leaves a tombstone ({@code
 * <E>/left/<rank>}) and is named as departed at once; a rank that dies is named when the
 * deadline passes.
 */
final class FileRendezvous implements Rendezvous {
    private static final PerftestKeyCodec CODEC = PerftestKeyCodec.GID;

    private final FileStore store;
    private final Path jobDir;
    private final RendezvousSpec spec;
    private final long deadline;
    private long epoch;
    private Map<Integer, ConnInfo> published;
    private boolean sealedByUs;
    private boolean closed;
    private long requests;
    private long bytesSent;
    private long bytesReceived;

    private FileRendezvous(FileStore store, Path jobDir, RendezvousSpec spec) {
        this.store = store;
        this.jobDir = jobDir;
        this.spec = spec;
        this.deadline = System.nanoTime() + spec.timeout().toNanos();
    }

    static FileRendezvous join(FileStore store, Path jobDir, RendezvousSpec spec) {
        FileRendezvous r = new FileRendezvous(store, jobDir, spec);
        r.io("joining", () -> {
            Files.createDirectories(jobDir);
            r.takeSlot();
            return null;
        });
        return r;
    }

    /** Takes this rank's slot in the current run, or in a new one when that is sealed or has it. */
    private void takeSlot() throws IOException {
        while (true) {
            if (System.nanoTime() - deadline > 0) {
                // each turn claims a newer run, so this is only reached when something else keeps
                // claiming (or removing) runs faster than this rank can join one
                throw new RendezvousException("job " + spec.job() + ": rank " + spec.rank() + " found no run to join in "
                        + jobDir + " before the deadline (" + spec.timeout() + ")");
            }
            long current = currentEpoch();
            if (current == 0) {
                claim(1);
                continue;
            }
            Path run = jobDir.resolve(Long.toString(current));
            requests += 2;
            if (!Files.exists(run.resolve("sealed"))) {
                try {
                    Files.createFile(run.resolve("member").resolve(Integer.toString(spec.rank())));
                    requests += 2;
                    // Sealed between the check and the slot: the earlier life of this rank sealed the
                    // run and closed (deleting its slot) in that window. Its values for this rank are
                    // all there, so staying would read the old run's: move on like any sealed run.
                    if (!Files.exists(run.resolve("sealed"))) {
                        // an earlier life of this rank that closed here left a tombstone: this one is back
                        Files.deleteIfExists(run.resolve("left").resolve(Integer.toString(spec.rank())));
                        epoch = current;
                        return;
                    }
                } catch (FileAlreadyExistsException taken) {
                    // a restart of this rank, or a rerun before the earlier run was sealed
                } catch (NoSuchFileException pruned) {
                    if (Files.isDirectory(run)) {
                        // not pruned, and no run this store claims lacks member/: made by hand
                        throw new MalformedEntryException(run.resolve("member").toString(),
                                "run " + current + " has no member directory", pruned);
                    }
                    continue; // the run was removed under us: a newer one exists
                }
            }
            claim(current + 1);
        }
    }

    /** Makes run {@code e} the current one unless another rank did (then it is already there). */
    private void claim(long e) throws IOException {
        Path target = jobDir.resolve(Long.toString(e));
        Path tmp = Files.createTempDirectory(jobDir, ".claim-");
        try {
            for (String sub : List.of("member", "info", "barrier", "left")) {
                Files.createDirectory(tmp.resolve(sub));
            }
            requests += 4;
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            prune(e - 2);
        } catch (FileSystemException lost) {
            deleteTree(tmp);
            if (!Files.isDirectory(target)) {
                throw lost;
            }
            // another rank claimed it first (rename(2) said ENOTEMPTY or EEXIST): join that one
        }
    }

    /** The greatest numbered run of the job, 0 for none. */
    private long currentEpoch() throws IOException {
        requests++;
        long max = 0;
        try (Stream<Path> runs = Files.list(jobDir)) {
            for (Path p : (Iterable<Path>) runs::iterator) {
                max = Math.max(max, epochOf(p));
            }
        }
        return max;
    }

    private static long epochOf(Path p) {
        String name = p.getFileName().toString();
        if (name.isEmpty() || name.length() > 18 || !name.chars().allMatch(Character::isDigit)) {
            return 0;
        }
        return Long.parseLong(name);
    }

    /** Removes runs up to {@code last}: no rank reads them once a run two newer exists. Best effort. */
    private void prune(long last) {
        try (Stream<Path> runs = Files.list(jobDir)) {
            for (Path p : (Iterable<Path>) runs::iterator) {
                long e = epochOf(p);
                if (e > 0 && e <= last) {
                    deleteTree(p);
                }
            }
        } catch (IOException | UncheckedIOException ignored) {
            // another rank prunes too, or the directory is read-only: the runs stay, unread
        }
    }

    private static void deleteTree(Path p) {
        try (Stream<Path> all = Files.walk(p)) {
            all.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException ignored) {
                    // best effort: see prune
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // gone already
        }
    }

    private Path run() {
        return jobDir.resolve(Long.toString(epoch));
    }

    @Override
    public RendezvousSpec spec() {
        return spec;
    }

    @Override
    public long epoch() {
        return epoch;
    }

    @Override
    public void publish(Map<Integer, ConnInfo> forPeers) {
        if (published != null) {
            throw new IllegalStateException("rank " + spec.rank() + " has published already");
        }
        for (int r = 0; r < spec.size(); r++) {
            if (r != spec.rank() && !forPeers.containsKey(r)) {
                throw new IllegalArgumentException("no info for rank " + r);
            }
        }
        if (forPeers.size() != spec.size() - 1) {
            throw new IllegalArgumentException("info for " + forPeers.keySet() + ": one per peer of rank " + spec.rank()
                    + " in 0.." + (spec.size() - 1) + ", not for itself");
        }
        published = new TreeMap<>(forPeers);
        io("publishing", () -> {
            writeInfos();
            return null;
        });
    }

    private void writeInfos() throws IOException {
        for (Map.Entry<Integer, ConnInfo> e : published.entrySet()) {
            Path to = run().resolve("info").resolve(Integer.toString(e.getKey()));
            Files.createDirectories(to);
            ByteBuffer b = ByteBuffer.allocate(CODEC.size());
            CODEC.encode(e.getValue(), b);
            AtomicFileWriter.write(to.resolve(Integer.toString(spec.rank())), b.array());
            requests += 2;
            bytesSent += b.capacity();
        }
    }

    @Override
    public Map<Integer, ConnInfo> await() {
        if (published == null) {
            throw new IllegalStateException("rank " + spec.rank() + " must publish before it waits");
        }
        return io("waiting for connection info", () -> {
            while (true) {
                Path mine = run().resolve("info").resolve(Integer.toString(spec.rank()));
                BitSet have = waitForAll(mine, "connection info", true);
                if (have == null) {
                    takeSlot();   // the job moved on: join the new run and publish there
                    writeInfos();
                    continue;
                }
                Map<Integer, ConnInfo> infos = new TreeMap<>();
                for (int from = have.nextSetBit(0); from >= 0; from = have.nextSetBit(from + 1)) {
                    infos.put(from, read(mine.resolve(Integer.toString(from))));
                }
                seal();
                return infos;
            }
        });
    }

    @Override
    public void barrier(String name) {
        if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("barrier name " + name + " is not 1-64 of [A-Za-z0-9_-]");
        }
        io("at barrier " + name, () -> {
            Path at = run().resolve("barrier").resolve(name);
            Files.createDirectories(at);
            try {
                Files.createFile(at.resolve(Integer.toString(spec.rank())));
            } catch (FileAlreadyExistsException again) {
                throw new IllegalStateException("rank " + spec.rank() + " reached barrier " + name + " twice");
            }
            requests += 2;
            waitForAll(at, "barrier " + name, false);
            return null;
        });
    }

    /**
     * Waits until {@code dir} holds a file for every peer (and this rank, unless {@code peersOnly}).
     * Returns who is there, or null when the job moved to a newer run while {@code peersOnly}
     * (the connection-info wait, which then joins it); fails at once naming a rank that left,
     * and at the deadline naming those that never came.
     */
    private BitSet waitForAll(Path dir, String what, boolean peersOnly) throws IOException {
        Path leftDir = run().resolve("left");
        try (DirWatch watch = new DirWatch(dir, leftDir, jobDir)) {
            while (true) {
                BitSet there = ranksIn(dir);
                int want = peersOnly ? spec.size() - 1 : spec.size();
                BitSet counted = (BitSet) there.clone();
                if (peersOnly) {
                    counted.clear(spec.rank());
                }
                if (counted.cardinality() == want) {
                    return counted;
                }
                if (peersOnly && currentEpoch() > epoch) {
                    return null;
                }
                BitSet gone = ranksIn(leftDir);
                List<Integer> departed = new ArrayList<>();
                List<Integer> never = new ArrayList<>();
                for (int r = 0; r < spec.size(); r++) {
                    if (r == spec.rank() || there.get(r)) {
                        continue;
                    }
                    (gone.get(r) ? departed : never).add(r);
                }
                if (store.isClosed()) {
                    throw new IOException("the store was closed while this rank waited");
                }
                long left = deadline - System.nanoTime();
                if (!departed.isEmpty() || left <= 0) {
                    seal(); // given up: a rerun of the job id starts a new run
                    throw new MissingRanksException(spec.job(), epoch, what, departed, left <= 0 ? never : List.of());
                }
                watch.await(left);
            }
        }
    }

    /** The ranks with a file in {@code dir} (temporary files, whose names start with '.', aside). */
    private BitSet ranksIn(Path dir) throws IOException {
        requests++;
        BitSet ranks = new BitSet(spec.size());
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith(".")) {
                    continue;
                }
                int r = parseRank(name);
                if (r < 0) {
                    throw new MalformedEntryException(p.toString(), "the name is not a rank of 0.." + (spec.size() - 1), null);
                }
                ranks.set(r);
            }
        } catch (NoSuchFileException gone) {
            return ranks;
        }
        return ranks;
    }

    private int parseRank(String name) {
        if (name.isEmpty() || name.length() > 7 || !name.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        int r = Integer.parseInt(name);
        return r < spec.size() ? r : -1;
    }

    private ConnInfo read(Path file) throws IOException {
        requests++;
        try {
            byte[] value = PeerFileReader.readIfPresent(file, CODEC);
            if (value != null) {
                bytesReceived += value.length;
                return CODEC.decode(value);
            }
        } catch (BootstrapException e) {
            throw new MalformedEntryException(file.toString(), e.getMessage(), e);
        }
        throw new MalformedEntryException(file.toString(), "it was removed while being read", null);
    }

    private void seal() throws IOException {
        if (sealedByUs) {
            return;
        }
        requests++;
        try {
            Files.createFile(run().resolve("sealed"));
        } catch (FileAlreadyExistsException already) {
            // sealed by another rank
        }
        sealedByUs = true;
    }

    @Override
    public StoreTraffic traffic() {
        return new StoreTraffic(requests, bytesSent, bytesReceived);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            // a tombstone, not only a deleted slot: a rank waiting on this one sees it left even if
            // it never listed the slot while it was there
            Files.createDirectories(run().resolve("left"));
            try {
                Files.createFile(run().resolve("left").resolve(Integer.toString(spec.rank())));
            } catch (FileAlreadyExistsException again) {
                // a second life of this rank left before
            }
            Files.deleteIfExists(run().resolve("member").resolve(Integer.toString(spec.rank())));
            requests += 2;
        } catch (IOException ignored) {
            // the run was pruned: nothing of ours is left
        }
    }

    private interface IoStep<T> {
        T run() throws IOException;
    }

    /** A step's I/O failure is the store's, named with what this rank was doing. */
    private <T> T io(String doing, IoStep<T> step) {
        if (closed) {
            throw new IllegalStateException("the rendezvous is closed");
        }
        try {
            if (store.isClosed()) {
                throw new IOException("the store is closed");
            }
            return step.run();
        } catch (IOException e) {
            throw new StoreUnavailableException(store.address(), doing + " as rank " + spec.rank() + " of job " + spec.job(), e);
        } catch (UncheckedIOException e) {
            throw new StoreUnavailableException(store.address(), doing + " as rank " + spec.rank() + " of job " + spec.job(),
                    e.getCause());
        }
    }
}
