package org.jrdma.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.auth.Permission;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A single-member etcd for tests: {@code /usr/bin/etcd} (or {@code $ETCD_BIN}) on two free
 * loopback ports with a data directory of its own. {@link #start()} skips the test (a JUnit
 * assumption) where etcd is not installed or {@code JRDMA_SKIP_ETCD} is set.
 *
 * <p>Readiness is etcd's own "ready to serve client requests" line, awaited with a deadline, then
 * confirmed by connecting to the client port: no sleeps. {@link #stop()} and {@link #restart()}
 * keep the ports and the data, as a store that went down and came back.
 */
public final class EtcdServer implements AutoCloseable {
    /** How long etcd may take to come up. */
    public static final Duration START_DEADLINE = Duration.ofSeconds(30);
    private static final int LOG_LINES = 200;
    private static final String READY = "ready to serve client requests";

    private final Path bin;
    private final Path dir;
    private final int clientPort;
    private final int peerPort;
    private final ArrayDeque<String> log = new ArrayDeque<>();
    private TestCerts certs;
    private Process process;

    private EtcdServer(Path bin) throws IOException {
        this.bin = bin;
        this.dir = Files.createTempDirectory("jrdma-etcd");
        int[] ports = freePorts();
        this.clientPort = ports[0];
        this.peerPort = ports[1];
    }

    /**
     * The etcd binary tests use: {@code $ETCD_BIN}, else {@code /usr/bin/etcd}.
     *
     * @return its path, which may not exist
     */
    public static Path binary() {
        String env = System.getenv("ETCD_BIN");
        return Path.of(env == null || env.isBlank() ? "/usr/bin/etcd" : env);
    }

    /**
     * Starts an etcd, or skips the calling test where there is none (or JRDMA_SKIP_ETCD is set).
     *
     * @return the running server
     * @throws IOException if it cannot be started
     */
    public static EtcdServer start() throws IOException {
        return start(false);
    }

    /**
     * Starts an etcd that serves TLS only and asks clients for a certificate of the same throwaway
     * CA ({@link #certs()}), or skips the calling test where there is no etcd or no openssl.
     *
     * @return the running server
     * @throws IOException if it cannot be started
     */
    public static EtcdServer startTls() throws IOException {
        return start(true);
    }

    private static EtcdServer start(boolean tls) throws IOException {
        Assumptions.assumeTrue(System.getenv("JRDMA_SKIP_ETCD") == null, "JRDMA_SKIP_ETCD is set");
        Path bin = binary();
        Assumptions.assumeTrue(Files.isExecutable(bin), "no etcd at " + bin + " (set ETCD_BIN)");
        Assumptions.assumeTrue(!tls || TestCerts.available(), "no openssl to make certificates with");
        EtcdServer s = new EtcdServer(bin);
        try {
            if (tls) {
                s.certs = TestCerts.make(Files.createDirectory(s.dir.resolve("tls")));
            }
            s.launch();
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    private static int[] freePorts() throws IOException {
        // both held open together, so that the two differ
        try (ServerSocket a = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                ServerSocket b = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return new int[] {a.getLocalPort(), b.getLocalPort()};
        }
    }

    private void launch() throws IOException {
        String client = url();
        String peer = "http://127.0.0.1:" + peerPort;
        List<String> cmd = new ArrayList<>(List.of(bin.toString(), "--name", "jrdma-test", "--data-dir", dir.resolve("data").toString(),
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", "jrdma-test=" + peer));
        if (certs != null) {
            cmd.addAll(List.of("--cert-file", certs.serverCert().toString(), "--key-file", certs.serverKey().toString(),
                    "--client-cert-auth", "--trusted-ca-file", certs.ca().toString()));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Process p = pb.start();
        process = p;
        CountDownLatch ready = new CountDownLatch(1);
        AtomicBoolean said = new AtomicBoolean();
        Thread reader = new Thread(() -> drain(p, ready, said), "etcd-log-" + clientPort);
        reader.setDaemon(true);
        reader.start();
        try {
            // the reader counts down when etcd says it is ready, or when etcd's output ends (it died)
            boolean up = ready.await(START_DEADLINE.toMillis(), TimeUnit.MILLISECONDS) && p.isAlive() && said.get();
            if (!up) {
                p.destroyForcibly();
                throw new IOException("etcd did not come up within " + START_DEADLINE + ":\n" + log());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted starting etcd", e);
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", clientPort), (int) START_DEADLINE.toMillis());
        }
    }

    private void drain(Process p, CountDownLatch ready, AtomicBoolean said) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                synchronized (log) {
                    if (log.size() == LOG_LINES) {
                        log.removeFirst();
                    }
                    log.addLast(line);
                }
                if (line.contains(READY)) {
                    said.set(true);
                    ready.countDown();
                }
            }
        } catch (IOException e) {
            // the process went away: its exit is what the waiter sees
        } finally {
            ready.countDown();
        }
    }

    /**
     * etcd's last lines of output, for a failing test's message.
     *
     * @return up to 200 lines
     */
    public String log() {
        synchronized (log) {
            return String.join("\n", log);
        }
    }

    /**
     * The client endpoint as a store address.
     *
     * @return {@code etcd://127.0.0.1:<port>}, {@code etcds://} with TLS
     */
    public String endpoint() {
        return (certs == null ? "etcd" : "etcds") + "://127.0.0.1:" + clientPort;
    }

    /**
     * The certificates of a TLS server.
     *
     * @return the CA, server and client files, or null without TLS
     */
    public TestCerts certs() {
        return certs;
    }

    /**
     * The client endpoint as jetcd takes it.
     *
     * @return {@code http://127.0.0.1:<port>}, {@code https://} with TLS
     */
    public String url() {
        return (certs == null ? "http" : "https") + "://127.0.0.1:" + clientPort;
    }

    /**
     * The client port.
     *
     * @return the port
     */
    public int clientPort() {
        return clientPort;
    }

    /**
     * Whether etcd is running.
     *
     * @return true between start and stop
     */
    public boolean running() {
        return process != null && process.isAlive();
    }

    /** Kills etcd (SIGKILL, as a crash) and waits for it to be gone; the data stays. */
    public void stop() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
            try {
                if (!p.waitFor(START_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("etcd " + p.pid() + " did not exit");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted stopping etcd", e);
            }
            process = null;
        }
    }

    /**
     * Freezes etcd (SIGSTOP) with its connections open: a store that hangs rather than one that
     * crashed, so that clients hear no error and only their own deadlines can tell. {@link #stop()}
     * and {@link #close()} still end it.
     *
     * @throws Exception if the signal cannot be sent
     */
    public void freeze() throws Exception {
        signal("-STOP");
    }

    /**
     * Lets a frozen etcd run again (SIGCONT).
     *
     * @throws Exception if the signal cannot be sent
     */
    public void thaw() throws Exception {
        signal("-CONT");
    }

    private void signal(String signal) throws Exception {
        Process p = process;
        if (p == null) {
            throw new IllegalStateException("etcd is not running");
        }
        Process kill = new ProcessBuilder("kill", signal, Long.toString(p.pid())).redirectErrorStream(true).start();
        if (!kill.waitFor(START_DEADLINE.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
            kill.destroyForcibly();
            throw new IllegalStateException("kill " + signal + " " + p.pid() + " failed: "
                    + new String(kill.getInputStream().readAllBytes(), UTF_8));
        }
    }

    /**
     * Stops etcd if it runs and starts it again on the same ports and data.
     *
     * @throws IOException if it does not come back
     */
    public void restart() throws IOException {
        stop();
        launch();
    }

    /**
     * Turns on etcd's auth: user {@code root} (role root) with {@code rootPassword}, and {@code user}
     * with a role that may read and write {@code /jrdma/} only.
     *
     * @param rootPassword root's password
     * @param user the rendezvous user
     * @param password its password
     * @throws Exception if etcd refuses
     */
    public void enableAuth(String rootPassword, String user, String password) throws Exception {
        try (Client c = Client.builder().endpoints(url()).build()) {
            var auth = c.getAuthClient();
            long s = 10;
            auth.userAdd(b("root"), b(rootPassword)).get(s, TimeUnit.SECONDS);
            auth.roleAdd(b("root")).get(s, TimeUnit.SECONDS);
            auth.userGrantRole(b("root"), b("root")).get(s, TimeUnit.SECONDS);
            auth.roleAdd(b("jrdma")).get(s, TimeUnit.SECONDS);
            // "/jrdma/" up to "/jrdma0": '0' follows '/', so this is exactly the prefix
            auth.roleGrantPermission(b("jrdma"), b("/jrdma/"), b("/jrdma0"), Permission.Type.READWRITE).get(s, TimeUnit.SECONDS);
            auth.userAdd(b(user), b(password)).get(s, TimeUnit.SECONDS);
            auth.userGrantRole(b(user), b("jrdma")).get(s, TimeUnit.SECONDS);
            auth.authEnable().get(s, TimeUnit.SECONDS);
        }
    }

    private static ByteSequence b(String s) {
        return ByteSequence.from(s, UTF_8);
    }

    /** Stops etcd and removes its data directory. */
    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return "EtcdServer[" + endpoint() + (running() ? "" : ", stopped") + "]";
    }

    private boolean logSays(String text) {
        synchronized (log) {
            return log.stream().anyMatch(l -> l.contains(text));
        }
    }
}
