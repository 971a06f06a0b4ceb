package org.jrdma.bootstrap.fixed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.RecordingListener;
import org.jrdma.bootstrap.TestInfos;
import org.jrdma.verbs.Mtu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StaticExchangeTest {
    private static final String GOOD = """
            # the rxe server of conformance/rxe/rc_pingpong.oob.txt
            lid = 0
            qpn = 0x17
            psn=0xe7692a

            gid = ::ffff:10.77.0.2
            mtu = 1024
            """;

    @Test
    void aGoodConfigGivesThePeerAndItsMtu() {
        StaticExchange exchange = StaticExchange.fromConfigText(GOOD);
        RecordingListener events = new RecordingListener();
        assertThat(exchange.exchange(TestInfos.CLIENT, events)).isEqualTo(TestInfos.SERVER);
        assertThat(exchange.mtu()).contains(Mtu.MTU_1024);
        assertThat(events.phases()).containsExactly(Phase.RECEIVED, Phase.CLOSED);
    }

    @Test
    void acceptsDecimalNumbersHexGidsAndNoMtu() {
        PeerConfig config = PeerConfig.parse("lid=0\nqpn=23\npsn=15165738\ngid=00000000000000000000FFFF0a4d0002\n");
        assertThat(config.peer()).isEqualTo(TestInfos.SERVER);
        assertThat(config.mtu()).isEmpty();
        assertThat(PeerConfig.parse("lid=0\r\nqpn=23\r\npsn=0\r\ngid=10.77.0.2").peer().gid()).isEqualTo(TestInfos.SERVER.gid());
    }

    @Test
    void readsAConfigFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("peer.conf"), GOOD, StandardCharsets.UTF_8);
        assertThat(StaticExchange.fromConfigFile(file).config().peer()).isEqualTo(TestInfos.SERVER);
        Path big = Files.write(dir.resolve("big.conf"), new byte[5000]);
        assertMalformed(() -> StaticExchange.fromConfigFile(big), "size");
        Path latin1 = Files.write(dir.resolve("latin1.conf"), new byte[] {'l', 'i', 'd', '=', (byte) 0xE9});
        assertMalformed(() -> StaticExchange.fromConfigFile(latin1), "encoding");
    }

    @Test
    void takesRcPingpongsTextFromTheCommandLine() {
        StaticExchange exchange = StaticExchange.fromPingpongText("0000:000012:e3de62:00000000000000000000ffff0a4d0003");
        assertThat(exchange.exchange(TestInfos.SERVER)).isEqualTo(TestInfos.CLIENT);
        assertMalformed(() -> StaticExchange.fromPingpongText("0000:000001:e3de62:00000000000000000000ffff0a4d0003"), "qpn");
        assertMalformed(() -> StaticExchange.fromPingpongText("0:12:e3de62:ffff0a4d0003"), "size");
    }

    /** OOB-13 and OOB-08: duplicate and conflicting entries, hostile values (QPN 0/1/2^24/2^32-1, PSN ≥ 2^24, negative, float, trailing garbage, MTU ∉ IB MTUs, multicast GID) each refused naming the key. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("badConfigs")
    void refusesABadConfigNamingTheKey(String why, String config, String field) {
        assertMalformed(() -> PeerConfig.parse(config), field);
    }

    static Stream<Arguments> badConfigs() {
        String lid = "lid=0\n", qpn = "qpn=0x17\n", psn = "psn=0xe7692a\n", gid = "gid=::ffff:10.77.0.2\n";
        return Stream.of(
                Arguments.of("missing lid", qpn + psn + gid, "lid"),
                Arguments.of("missing qpn", lid + psn + gid, "qpn"),
                Arguments.of("missing psn", lid + qpn + gid, "psn"),
                Arguments.of("missing gid", lid + qpn + psn, "gid"),
                Arguments.of("empty", "", "lid"),
                Arguments.of("unknown key", lid + qpn + psn + gid + "qkey=0x1234\n", "qkey"),
                Arguments.of("unknown unprintable key", lid + qpn + psn + gid + "\u0007=1\n", "key"),
                Arguments.of("keys are lower case", "LID=0\n" + qpn + psn + gid, "LID"),
                Arguments.of("duplicate qpn", lid + qpn + psn + gid + "qpn=0x18\n", "qpn"),
                Arguments.of("conflicting gid", lid + qpn + psn + gid + "gid=10.77.0.9\n", "gid"),
                Arguments.of("duplicate mtu", lid + qpn + psn + gid + "mtu=1024\nmtu=4096\n", "mtu"),
                Arguments.of("no equals sign", lid + qpn + psn + gid + "mtu 1024\n", "line"),
                Arguments.of("trailing comment", lid + "qpn=0x17 # server\n" + psn + gid, "qpn"),
                Arguments.of("qpn 0", lid + "qpn=0\n" + psn + gid, "qpn"),
                Arguments.of("qpn 1", lid + "qpn=1\n" + psn + gid, "qpn"),
                Arguments.of("qpn multicast", lid + "qpn=0xffffff\n" + psn + gid, "qpn"),
                Arguments.of("qpn 2^24", lid + "qpn=0x1000000\n" + psn + gid, "qpn"),
                Arguments.of("qpn 2^32-1", lid + "qpn=0xffffffff\n" + psn + gid, "qpn"),
                Arguments.of("qpn negative", lid + "qpn=-5\n" + psn + gid, "qpn"),
                Arguments.of("psn 2^24", lid + qpn + "psn=16777216\n" + gid, "psn"),
                Arguments.of("psn float", lid + qpn + "psn=1.5\n" + gid, "psn"),
                Arguments.of("psn empty", lid + qpn + "psn=\n" + gid, "psn"),
                Arguments.of("lid 2^16", "lid=0x10000\n" + qpn + psn + gid, "lid"),
                Arguments.of("gid a host name", lid + qpn + psn + "gid=localhost\n", "gid"),
                Arguments.of("gid 31 hex digits", lid + qpn + psn + "gid=0000000000000000000ffff0a4d0002\n", "gid"),
                Arguments.of("gid multicast", lid + qpn + psn + "gid=ff02::1\n", "gid"),
                Arguments.of("mtu 0", lid + qpn + psn + gid + "mtu=0\n", "mtu"),
                Arguments.of("mtu 100", lid + qpn + psn + gid + "mtu=100\n", "mtu"),
                Arguments.of("mtu 8192", lid + qpn + psn + gid + "mtu=8192\n", "mtu"),
                Arguments.of("too long", "#".repeat(5000), "size"));
    }

    /** OOB-13: a self-loop (our own QPN and GID as the peer) is refused. */
    @Test
    void refusesItselfAsThePeer() {
        ConnInfo me = TestInfos.CLIENT;
        ConnInfo samePort = new ConnInfo(0, me.qpn(), 0x1234, me.gid());
        assertMalformed(() -> StaticExchange.of(samePort).exchange(me), "qpn");
        // Same QPN on another host is a different QP.
        ConnInfo otherHost = new ConnInfo(0, me.qpn(), 0x1234, TestInfos.gid("10.77.0.9"));
        assertThat(StaticExchange.of(otherHost).exchange(me)).isEqualTo(otherHost);
    }

    private static void assertMalformed(Runnable r, String field) {
        assertThatThrownBy(r::run)
                .isInstanceOfSatisfying(MalformedMessageException.class, e -> assertThat(e.field()).isEqualTo(field));
    }
}
