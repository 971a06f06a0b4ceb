package org.jrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PostExceptionTest {
    @Test
    void theFirstWrsFailureKeepsTheSingleWrMessageAndErrno() {
        VerbsException single = new VerbsException(Errno.ENOMEM, "post_send: the send queue is full (16 WRs outstanding)");
        SendWorkRequest wr = new SendWorkRequest().wrId(9);
        PostException p = PostException.of(single, wr, 0);
        assertThat(p.getMessage()).isEqualTo(single.getMessage());
        assertThat(p.errno()).isEqualTo(Errno.ENOMEM);
        assertThat(p.badWr()).isSameAs(wr);
        assertThat(p.badSendWr()).isSameAs(wr);
        assertThat(p.badRecvWr()).isNull();
        assertThat(p.posted()).isZero();
        assertThat(p.getCause()).isSameAs(single);
        assertThat(p).isInstanceOf(VerbsException.class);
    }

    @Test
    void aLaterWrsFailureSaysWhereInTheListItIs() {
        RecvWorkRequest wr = new RecvWorkRequest().wrId(0x77);
        PostException p = PostException.of(new VerbsException(Errno.EINVAL, "post_recv: 3 SGEs but max_sge is 1"), wr, 2);
        assertThat(p.getMessage()).isEqualTo("post_recv: 3 SGEs but max_sge is 1 (WR 2 of the post list, wr_id 119; the 2"
                + " before it were posted) (EINVAL)");
        assertThat(p.badRecvWr()).isSameAs(wr);
        assertThat(p.badSendWr()).isNull();
        assertThat(p.posted()).isEqualTo(2);
        assertThat(PostException.of(p, new RecvWorkRequest(), 5)).as("already a list failure").isSameAs(p);
    }

    @Test
    void aCyclicListIsEinvalWithNothingPosted() {
        SendWorkRequest head = new SendWorkRequest();
        PostException p = PostException.cyclic("post_send", head);
        assertThat(p.errno()).isEqualTo(Errno.EINVAL);
        assertThat(p.posted()).isZero();
        assertThat(p.badWr()).isSameAs(head);
        assertThat(p.getMessage()).contains("cyclic", "nothing was posted");
    }

    @Test
    void theBadWrIsAWorkRequest() {
        assertThatThrownBy(() -> new PostException(Errno.EINVAL, "x", "not a WR", 0, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PostException(Errno.EINVAL, "x", new SendWorkRequest(), -1, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nextChainsFluently() {
        SendWorkRequest b = new SendWorkRequest().wrId(2);
        SendWorkRequest a = new SendWorkRequest().wrId(1).next(b);
        assertThat(a.next).isSameAs(b);
        assertThat(b.next).isNull();
        RecvWorkRequest rb = new RecvWorkRequest();
        assertThat(new RecvWorkRequest().next(rb).next).isSameAs(rb);
    }
}
