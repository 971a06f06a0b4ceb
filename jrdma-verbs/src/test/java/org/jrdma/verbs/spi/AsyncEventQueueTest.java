package org.jrdma.verbs.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SharedReceiveQueue;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

/** The providers' shared async event queue: order, the bound, timeouts, acks, an event from another thread. */
class AsyncEventQueueTest {
    private record Event(AsyncEventType type) implements AsyncEvent {
        @Override
        public QueuePair qp() {
            return null;
        }

        @Override
        public CompletionQueue cq() {
            return null;
        }

        @Override
        public SharedReceiveQueue srq() {
            return null;
        }

        @Override
        public int portNum() {
            return 1;
        }

        @Override
        public void ack() {
        }
    }

    @Test
    void eventsComeOutInOrderUpToTheBoundAndEachTakenOneIsAckedOnce() {
        AsyncEventQueue q = new AsyncEventQueue(2);
        q.post(new Event(AsyncEventType.QP_FATAL));
        q.post(new Event(AsyncEventType.CQ_ERR));
        q.post(new Event(AsyncEventType.SRQ_ERR)); // past the bound: dropped
        assertThat(q.take(Duration.ZERO).type()).isEqualTo(AsyncEventType.QP_FATAL);
        assertThat(q.take(Duration.ZERO).type()).isEqualTo(AsyncEventType.CQ_ERR);
        assertThatThrownBy(() -> q.take(Duration.ofMillis(1))).isInstanceOf(VerbsException.class)
                .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.ETIMEDOUT));
        q.ack();
        q.ack();
        assertThatThrownBy(q::ack).isInstanceOf(VerbsException.class)
                .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.EINVAL));
    }

    @Test
    void aTakerGetsAnEventPostedFromAnotherThread() throws Exception {
        AsyncEventQueue q = new AsyncEventQueue(4);
        AsyncEvent[] got = new AsyncEvent[1];
        Thread taker = Thread.ofPlatform().start(() -> got[0] = q.take(Duration.ofSeconds(30)));
        q.post(new Event(AsyncEventType.COMM_EST));
        taker.join(30_000);
        assertThat(got[0]).isNotNull();
        assertThat(got[0].type()).isEqualTo(AsyncEventType.COMM_EST);
    }
}
