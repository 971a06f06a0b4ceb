package org.jrdma.bootstrap.file;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ConnInfoCodec;
import org.jrdma.bootstrap.Excerpt;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.ExchangeStep;
import org.jrdma.bootstrap.ExchangeTimeoutException;
import org.jrdma.bootstrap.InvalidFieldException;
import org.jrdma.bootstrap.PingpongTextCodec;

/**
 * Exchange through a shared directory: each side publishes {@code jrdma-<session>.<role>.conn}
 * atomically and waits, up to a deadline, for the peer's.
 *
 * <p><b>Stale files (OOB-12).</b> Both sides are given the same session string, chosen fresh
 * for each run by the user (e.g. {@code --session "$(date +%s)-$RANDOM"}), and it is part of the
 * file names, so a file left by an earlier run is not found under a new session. Within a run,
 * each side deletes the peer file it has <em>read</em> (deleting its own instead could remove it
 * before the peer read it), and a side that fails deletes its own file; after a clean run, or a
 * failed one that was not killed, nothing remains that a rerun could read.
 *
 * <p>The file holds the 52-byte rc_pingpong text by default, so it can be inspected with
 * {@code cat} and pasted into a static config. That text has no field for a buffer; to swap
 * an exposed region's rkey and address ({@code RcOptions.exposing}) use
 * {@code withCodec(PerftestKeyCodec.GID)}, whose 108-byte text is as readable.
 */
public final class FileExchange implements Exchange {
    /** How long {@link #exchange} waits for the peer's file unless told otherwise: 10 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern SESSION = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}");
    /** No '.' in a role, so {@code jrdma-<session>.<role>.conn} splits one way only. */
    private static final Pattern ROLE = Pattern.compile("[A-Za-z0-9_-]{1,32}");
    private static final long FIRST_POLL_NANOS = 1_000_000;   // 1 ms
    private static final long MAX_POLL_NANOS = 50_000_000;    // 50 ms

    private final Path directory;
    private final String session;
    private final String localRole;
    private final String peerRole;
    private final ConnInfoCodec codec;
    private final Duration timeout;

    private FileExchange(Path directory, String session, String localRole, String peerRole, ConnInfoCodec codec, Duration timeout) {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.session = checkName("session", session, SESSION, "1-64 of [A-Za-z0-9._-], not starting with '.'");
        this.localRole = checkName("role", localRole, ROLE, "1-32 of [A-Za-z0-9_-]");
        this.peerRole = checkName("peer role", peerRole, ROLE, "1-32 of [A-Za-z0-9_-]");
        if (localRole.equals(peerRole)) {
            throw new InvalidFieldException("role", "both sides are named " + Excerpt.of(localRole) + "; the roles must differ");
        }
        this.codec = Objects.requireNonNull(codec, "codec");
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be a positive duration, not " + timeout);
        }
        this.timeout = timeout;
    }

    /**
     * An exchange through {@code directory}, with the rc_pingpong text codec and
     * {@link #DEFAULT_TIMEOUT}. E.g. {@code of(dir, "run-42", "server", "client")} on one side and
     * {@code (…, "client", "server")} on the other.
     *
     * @param directory the directory both sides see
     * @param session names this run: 1-64 of {@code [A-Za-z0-9._-]}, not starting with '.'
     * @param localRole this side's role: 1-32 of {@code [A-Za-z0-9_-]}
     * @param peerRole the peer's role, different from {@code localRole}
     * @return the exchange
     * @throws InvalidFieldException if a name is not allowed or the roles are equal
     */
    public static FileExchange of(Path directory, String session, String localRole, String peerRole) {
        return new FileExchange(directory, session, localRole, peerRole, PingpongTextCodec.INSTANCE, DEFAULT_TIMEOUT);
    }

    /**
     * A copy that writes and reads files in another format.
     *
     * @param newCodec the codec, e.g. {@link org.jrdma.bootstrap.SeedBinaryCodec#INSTANCE}
     * @return the copy
     */
    public FileExchange withCodec(ConnInfoCodec newCodec) {
        return new FileExchange(directory, session, localRole, peerRole, newCodec, timeout);
    }

    /**
     * A copy that waits another time for the peer's file.
     *
     * @param newTimeout a positive duration
     * @return the copy
     * @throws IllegalArgumentException if it is not positive
     */
    public FileExchange withTimeout(Duration newTimeout) {
        return new FileExchange(directory, session, localRole, peerRole, codec, newTimeout);
    }

    /**
     * The file this side writes: {@code jrdma-<session>.<localRole>.conn} in the directory.
     *
     * @return its path
     */
    public Path localFile() {
        return fileOf(localRole);
    }

    /**
     * The file the peer writes and this side reads: {@code jrdma-<session>.<peerRole>.conn}.
     *
     * @return its path
     */
    public Path peerFile() {
        return fileOf(peerRole);
    }

    @Override
    public ConnInfo exchange(ConnInfo local, ExchangeListener events) {
        Objects.requireNonNull(local, "local");
        Path own = localFile();
        Path peer = peerFile();
        boolean succeeded = false;
        try {
            AtomicFileWriter.write(own, codec.encode(local));
            events.emit(Phase.SENT, own.toString());
            ConnInfo info = codec.decode(awaitPeerFile(peer));
            Files.deleteIfExists(peer);
            events.emit(Phase.RECEIVED, peer.toString());
            succeeded = true;
            return info;
        } catch (IOException e) {
            throw new ExchangeIoException("exchange through " + directory, e);
        } finally {
            if (!succeeded) {
                deleteQuietly(own);
            }
            events.emit(Phase.CLOSED, "");
        }
    }

    /**
     * Polls with a growing pause: this waits on a filesystem condition under a deadline, and a
     * WatchService adds platform quirks (polling fallbacks, overflow) for no gain at this scale.
     */
    private byte[] awaitPeerFile(Path peer) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = FIRST_POLL_NANOS;
        while (true) {
            byte[] content = PeerFileReader.readIfPresent(peer, codec);
            if (content != null) {
                return content;
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new ExchangeTimeoutException(ExchangeStep.WAIT_FOR_FILE, timeout, "waiting for " + peer);
            }
            LockSupport.parkNanos(Math.min(pause, remaining));
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while waiting for " + peer);
            }
            pause = Math.min(2 * pause, MAX_POLL_NANOS);
        }
    }

    private Path fileOf(String role) {
        return directory.resolve("jrdma-" + session + "." + role + ".conn");
    }

    private static String checkName(String field, String value, Pattern pattern, String rule) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw new InvalidFieldException(field, (value == null ? "missing" : Excerpt.of(value)) + " must be " + rule);
        }
        return value;
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // Best effort on a failure path; the session name still keeps a rerun from reading it.
        }
    }
}
