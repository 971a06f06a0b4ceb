package org.jrdma.bootstrap.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.jrdma.bootstrap.AuthenticationException;
import org.jrdma.bootstrap.BootstrapException;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.FakeVerbs;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.TestInfos;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mutual-TLS exchange (AUTH-01's mTLS, OOB-11). Key pairs are made at test time with the
 * JDK's own keytool: a server and a client, each trusted by the other, and a stranger trusted
 * by nobody.
 */
@Timeout(120)
class TlsExchangeTest {
    private static final java.net.InetAddress LOOPBACK = java.net.InetAddress.getLoopbackAddress();
    private static final Duration GENEROUS = Duration.ofSeconds(20);
    private static final char[] PASSWORD = "test-only".toCharArray();

    @TempDir
    static Path dir;
    private static SSLContext server;
    private static SSLContext client;
    private static SSLContext stranger;

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @BeforeAll
    static void makeKeys() throws Exception {
        for (String name : List.of("server", "client", "stranger")) {
            keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                    "-dname", "CN=jrdma-test-" + name, "-keystore", ks(name), "-storetype", "PKCS12");
            keytool("-exportcert", "-alias", name, "-keystore", ks(name), "-file", dir.resolve(name + ".crt").toString());
        }
        // The server trusts the client; the client trusts the server; nobody trusts the stranger,
        // who trusts both (so only the others' checks can refuse it).
        keytool("-importcert", "-noprompt", "-alias", "client", "-file", crt("client"), "-keystore", ts("server"), "-storetype", "PKCS12");
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", crt("server"), "-keystore", ts("client"), "-storetype", "PKCS12");
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", crt("server"), "-keystore", ts("stranger"), "-storetype", "PKCS12");
        keytool("-importcert", "-noprompt", "-alias", "client", "-file", crt("client"), "-keystore", ts("stranger"), "-storetype", "PKCS12");
        server = TlsContexts.load(Path.of(ks("server")), PASSWORD, Path.of(ts("server")), PASSWORD);
        client = TlsContexts.load(Path.of(ks("client")), PASSWORD, Path.of(ts("client")), PASSWORD);
        stranger = TlsContexts.load(Path.of(ks("stranger")), PASSWORD, Path.of(ts("stranger")), PASSWORD);
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static TcpOptions tls(SSLContext context) {
        return TcpOptions.rcPingpong().withTimeout(GENEROUS).withSecurity(TcpSecurity.tls(context));
    }

    /** AUTH-01 (mTLS): both certificates trusted, each side gets the other's info. */
    @Test
    void auth01MutualTlsExchangesInfo() throws Exception {
        TcpServerExchange s = TcpExchange.server(LOOPBACK, 0, tls(server)).bind();
        try (Relay relay = new Relay(s.localPort())) {
            Future<ConnInfo> atServer = threads.submit(() -> s.exchange(TestInfos.SERVER));
            assertThat(TcpExchange.client("127.0.0.1", relay.port(), tls(client)).exchange(TestInfos.CLIENT)).isEqualTo(TestInfos.SERVER);
            assertThat(atServer.get()).isEqualTo(TestInfos.CLIENT);
            relay.close();
            String wire = new String(relay.toServer(), java.nio.charset.StandardCharsets.ISO_8859_1)
                    + new String(relay.toClient(), java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(wire).doesNotContain("000012").doesNotContain("e3de62").doesNotContain("000017").doesNotContain("e7692a");
        }
    }

    /** OOB-11: a client whose certificate the server does not trust is refused on both sides, and no QP is created. */
    @Test
    void oob11AnUntrustedClientCertificateIsRefused() throws Exception {
        FakeVerbs serverVerbs = new FakeVerbs(TestInfos.SERVER.gid());
        FakeVerbs clientVerbs = new FakeVerbs(TestInfos.CLIENT.gid());
        TcpServerExchange s = TcpExchange.server(LOOPBACK, 0, tls(server)).bind();
        Future<Throwable> atServer = threads.submit(() -> catchThrowable(() ->
                RcConnector.connect(serverVerbs.pd, s, RcOptions.defaults(serverVerbs.cq))));
        Throwable atClient = catchThrowable(() -> RcConnector.connect(clientVerbs.pd,
                TcpExchange.client("127.0.0.1", s.localPort(), tls(stranger)), RcOptions.defaults(clientVerbs.cq)));
        assertThat(atServer.get(30, TimeUnit.SECONDS)).isInstanceOf(AuthenticationException.class);
        assertThat(atClient).isInstanceOf(AuthenticationException.class);
        assertThat(serverVerbs.created()).isZero();
        assertThat(clientVerbs.created()).isZero();
    }

    /** OOB-11: a server whose certificate the client does not trust is refused by the client. */
    @Test
    void oob11AnUntrustedServerCertificateIsRefused() throws Exception {
        TcpServerExchange s = TcpExchange.server(LOOPBACK, 0, tls(stranger)).bind();
        Future<Throwable> atServer = threads.submit(() -> catchThrowable(() -> s.exchange(TestInfos.SERVER)));
        Throwable atClient = catchThrowable(() -> TcpExchange.client("127.0.0.1", s.localPort(), tls(client)).exchange(TestInfos.CLIENT));
        assertThat(atClient).isInstanceOf(AuthenticationException.class).hasMessageContaining("TLS");
        assertThat(atServer.get(30, TimeUnit.SECONDS)).isInstanceOf(AuthenticationException.class);
    }

    /** AUTH-02: a plain client at a TLS server is refused, typed on both sides; no fall-back to the clear. */
    @Test
    void auth02APlainClientIsRefusedByATlsServer() throws Exception {
        TcpServerExchange s = TcpExchange.server(LOOPBACK, 0, tls(server)).bind();
        Future<Throwable> atServer = threads.submit(() -> catchThrowable(() -> s.exchange(TestInfos.SERVER)));
        Throwable atClient = catchThrowable(() -> TcpExchange.client("127.0.0.1", s.localPort(),
                TcpOptions.rcPingpong().withTimeout(GENEROUS)).exchange(TestInfos.CLIENT));
        assertThat(atServer.get(30, TimeUnit.SECONDS)).isInstanceOf(BootstrapException.class);
        assertThat(atClient).isInstanceOf(BootstrapException.class);
    }

    /** OOB-03 in TLS mode: a silent peer is cut off at the absolute deadline by the shared timer. */
    @Test
    void oob03ASilentPeerTimesOutInTheTlsHandshake() throws Exception {
        Duration shortDeadline = Duration.ofMillis(300);
        TcpServerExchange s = TcpExchange.server(LOOPBACK, 0, tls(server).withIoTimeout(shortDeadline)).bind();
        Future<Throwable> atServer = threads.submit(() -> catchThrowable(() -> s.exchange(TestInfos.SERVER)));
        try (java.net.Socket silent = new java.net.Socket(LOOPBACK, s.localPort())) {
            assertThat(atServer.get(30, TimeUnit.SECONDS)).isInstanceOf(org.jrdma.bootstrap.ExchangeTimeoutException.class);
        }
    }

    private static String ks(String name) {
        return dir.resolve(name + ".p12").toString();
    }

    private static String ts(String name) {
        return dir.resolve(name + "-trust.p12").toString();
    }

    private static String crt(String name) {
        return dir.resolve(name + ".crt").toString();
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        command.addAll(List.of("-storepass", new String(PASSWORD)));
        if (args[0].equals("-genkeypair")) {
            command.addAll(List.of("-keypass", new String(PASSWORD)));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + out);
        }
    }
}
