package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jrdma.verbs.Gid;
import org.jrdma.verbs.QpState;
import org.junit.jupiter.api.Test;

/** An shm QP meets a peer that is not on shm (or the reverse): typed, before the QP takes anything. */
class ProviderMismatchTest {
    /** A GID as jrdma-shm gives them: fd6a:736d: then the node. */
    private static final Gid SHM = Gid.fromHex("fd6a736d0000000000000000000004d2");
    private static final Gid SHM_PEER = Gid.fromHex("fd6a736d000000000000000000000929");

    @Test
    void anShmGidIsToldByItsFirstFourBytes() {
        assertThat(ProviderMismatchException.isShm(SHM)).isTrue();
        assertThat(SHM.toString()).startsWith("fd6a:736d:");
        assertThat(ProviderMismatchException.isShm(TestInfos.CLIENT.gid())).isFalse();
        assertThat(ProviderMismatchException.isShm(Gid.ZERO)).isFalse();
        // a ULA that shares three of the four bytes is not shm's
        assertThat(ProviderMismatchException.isShm(Gid.fromHex("fd6a7300000000000000000000000001"))).isFalse();
    }

    @Test
    void shmMeetingSoftFailsNamingTheProviderOption() {
        FakeVerbs verbs = new FakeVerbs(SHM);
        Exchange softPeer = (local, listener) -> TestInfos.CLIENT;
        assertThatThrownBy(() -> RcConnector.connect(verbs.pd, softPeer, RcOptions.defaults(verbs.cq)))
                .isInstanceOf(ProviderMismatchException.class)
                .hasMessageContaining("the peer is not on shm (GID ::ffff:10.77.0.3)")
                .hasMessageContaining("this side is on shm")
                .hasMessageContaining("use the same --provider (JRDMA_PROVIDER) on both sides")
                .satisfies(e -> assertThat(((ProviderMismatchException) e).remote()).isEqualTo(TestInfos.CLIENT.gid()));
        assertThat(verbs.qps).singleElement().satisfies(qp -> {
            assertThat(qp.states).as("no transition with the peer's info").isEmpty();
            assertThat(qp.closed).isTrue();
        });
    }

    @Test
    void softMeetingShmFailsBeforeRtrOnTheServersOrderToo() {
        FakeVerbs verbs = new FakeVerbs(TestInfos.SERVER.gid());
        ConnInfo shmPeer = new ConnInfo(0, 0x12, 0xe3de62, SHM);
        boolean[] replied = {false};
        RcConnector.PeerFirstExchange server = (local, listener, beforeReply) -> {
            beforeReply.accept(shmPeer);
            replied[0] = true;
            return shmPeer;
        };
        assertThatThrownBy(() -> RcConnector.connect(verbs.pd, server, RcOptions.defaults(verbs.cq)))
                .isInstanceOf(ProviderMismatchException.class).hasMessageContaining("the peer is on shm");
        assertThat(replied[0]).as("our message never goes out").isFalse();
        assertThat(verbs.qps).singleElement().satisfies(qp -> assertThat(qp.closed).isTrue());
    }

    @Test
    void twoShmSidesConnect() {
        FakeVerbs verbs = new FakeVerbs(SHM);
        Exchange shmPeer = (local, listener) -> new ConnInfo(0, 0x12, 0xe3de62, SHM_PEER);
        RcConnection c = RcConnector.connect(verbs.pd, shmPeer, RcOptions.defaults(verbs.cq));
        assertThat(c.remote().gid()).isEqualTo(SHM_PEER);
        assertThat(verbs.qps.getFirst().states).containsExactly(QpState.INIT, QpState.RTR, QpState.RTS);
    }
}
