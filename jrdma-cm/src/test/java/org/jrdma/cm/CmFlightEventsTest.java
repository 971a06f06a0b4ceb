package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jrdma.verbs.Device;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CM connection over the soft devices' GSI QPs, recorded: ESTABLISHED on each side is one
 * ConnectionEstablished (method cm, the peer's address, both QPNs as that side sees them), and
 * the DISCONNECTED that follows is one ConnectionClosed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CmFlightEventsTest extends CmFixture {
    private CmOptions options;

    @BeforeAll
    void devices() {
        serverDevice = TestDevices.fresh("jfrs");
        clientDevice = TestDevices.fresh("jfrc");
        options = Cm.options(List.<Device>of(serverDevice, clientDevice), GsiMadPort::open);
    }

    @Override
    protected CmOptions options() {
        return options;
    }

    @Test
    void establishedAndDisconnectedAreRecordedOnBothSides(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("cm.jfr");
        int clientQpn;
        int serverQpn;
        try (Recording r = new Recording()) {
            r.enable("org.jrdma.ConnectionEstablished");
            r.enable("org.jrdma.ConnectionClosed");
            r.start();
            Pair p = connected();
            clientQpn = p.clientEp().qp.qpNum();
            serverQpn = p.server().ep().qp.qpNum();
            disconnectBoth(p);
            r.stop();
            r.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        for (String name : List.of("org.jrdma.ConnectionEstablished", "org.jrdma.ConnectionClosed")) {
            List<RecordedEvent> kind = events.stream().filter(e -> e.getEventType().getName().equals(name))
                    .filter(e -> e.getInt("localQpn") == clientQpn || e.getInt("localQpn") == serverQpn).toList();
            assertThat(kind).as(name).hasSize(2);
            assertThat(kind).allSatisfy(e -> {
                assertThat(e.getString("method")).isEqualTo("cm");
                assertThat(e.getString("peer")).isNotBlank();
                assertThat(e.getInt("remoteQpn")).isEqualTo(e.getInt("localQpn") == clientQpn ? serverQpn : clientQpn);
            });
        }
    }
}
