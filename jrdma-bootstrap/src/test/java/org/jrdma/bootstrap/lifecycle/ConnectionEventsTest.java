package org.jrdma.bootstrap.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.bootstrap.tcp.TcpServerExchange;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A connection made by RcConnector over the TCP bootstrap (ephemeral port) between two soft
 * devices shows in a Flight Recording as one ConnectionEstablished and, after close, one
 * ConnectionClosed per side, each naming the bootstrap and both QPNs the way round it saw them.
 */
class ConnectionEventsTest {
    @Test
    void aTcpBootstrappedConnectionIsRecordedWhenEstablishedAndWhenClosed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bootstrap.jfr");
        int serverQpn;
        int clientQpn;
        try (Recording r = new Recording();
                Context cs = ConnectCloseCyclesTest.device("jfr_srv").open();
                Context cc = ConnectCloseCyclesTest.device("jfr_cli").open()) {
            r.enable("org.jrdma.ConnectionEstablished");
            r.enable("org.jrdma.ConnectionClosed");
            r.start();
            ProtectionDomain ps = cs.allocPd();
            ProtectionDomain pc = cc.allocPd();
            TcpOptions tcp = TcpOptions.rcPingpong().withTimeout(Duration.ofSeconds(20));
            TcpServerExchange server = TcpExchange.server(InetAddress.getLoopbackAddress(), 0, tcp).bind();
            CompletableFuture<RcConnection> accepted = CompletableFuture.supplyAsync(
                    () -> RcConnector.connect(ps, server, options(cs)));
            RcConnection client = RcConnector.connect(pc, TcpExchange.client("127.0.0.1", server.localPort(), tcp), options(cc));
            RcConnection srv = accepted.get(20, TimeUnit.SECONDS);
            serverQpn = srv.qp().qpNum();
            clientQpn = client.qp().qpNum();
            client.close();
            srv.close();
            r.stop();
            r.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        List<RecordedEvent> up = named(events, "org.jrdma.ConnectionEstablished");
        List<RecordedEvent> down = named(events, "org.jrdma.ConnectionClosed");
        for (List<RecordedEvent> kind : List.of(up, down)) {
            assertThat(kind).hasSize(2);
            assertThat(kind).allSatisfy(e -> {
                assertThat(e.getString("method")).isEqualTo("tcp");
                assertThat(e.getString("peer")).contains("127.");
            });
            assertThat(kind).anySatisfy(e -> {
                assertThat(e.getInt("localQpn")).isEqualTo(serverQpn);
                assertThat(e.getInt("remoteQpn")).isEqualTo(clientQpn);
            });
            assertThat(kind).anySatisfy(e -> {
                assertThat(e.getInt("localQpn")).isEqualTo(clientQpn);
                assertThat(e.getInt("remoteQpn")).isEqualTo(serverQpn);
            });
        }
        assertThat(up).allSatisfy(e -> assertThat(e.getDuration("setupNanos")).isPositive());
        assertThat(down).allSatisfy(e -> assertThat(e.getDuration("connectedNanos")).isPositive());
    }

    private static RcOptions options(Context ctx) {
        return RcOptions.defaults(ctx.createCq(8, null)).withCap(new QpCap(4, 4, 1, 1, 0));
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }
}
