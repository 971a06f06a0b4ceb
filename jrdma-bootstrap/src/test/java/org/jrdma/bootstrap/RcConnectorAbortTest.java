package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jrdma.verbs.QpState;
import org.junit.jupiter.api.Test;

/** OOB-14: a set-up that fails after the QP was connected leaves no QP behind. */
class RcConnectorAbortTest {
    /** The peer disconnects after our QP reached RTR and RTS: the error is typed and the QP destroyed. */
    @Test
    void oob14PeerGoneAfterRtrDestroysTheQp() {
        FakeVerbs verbs = new FakeVerbs(TestInfos.SERVER.gid());
        RcConnector.PeerFirstExchange dropsAfterRtr = (local, listener, beforeReply) -> {
            beforeReply.accept(TestInfos.CLIENT); // RcConnector takes the QP to RTR and RTS here
            throw new PeerClosedException("write our message", 0, 52);
        };
        assertThatThrownBy(() -> RcConnector.connect(verbs.pd, dropsAfterRtr, RcOptions.defaults(verbs.cq)))
                .isInstanceOf(PeerClosedException.class);
        assertThat(verbs.qps).singleElement().satisfies(qp -> {
            assertThat(qp.states).containsExactly(QpState.INIT, QpState.RTR, QpState.RTS);
            assertThat(qp.closed).isTrue();
        });
    }

    /** The exchange fails before any transition: the QP is destroyed too. */
    @Test
    void oob14ExchangeFailureDestroysTheQp() {
        FakeVerbs verbs = new FakeVerbs(TestInfos.SERVER.gid());
        Exchange fails = (local, listener) -> {
            throw new MalformedMessageException("qpn", "0x000000 is QP0");
        };
        assertThatThrownBy(() -> RcConnector.connect(verbs.pd, fails, RcOptions.defaults(verbs.cq)))
                .isInstanceOf(MalformedMessageException.class);
        assertThat(verbs.qps).singleElement().satisfies(qp -> assertThat(qp.closed).isTrue());
    }
}
