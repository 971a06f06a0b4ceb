package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.DatagramsFactory;
import org.jrdma.soft.net.ImpairedDatagrams;
import org.jrdma.soft.net.Impairment;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

/**
 * Issue 12 (send_lat with {@code reorder=25%/gap:1000/hold:2ms}): a packet the impairment holds
 * 2 ms left only when the device's engine next ran a pass. While the application drives the
 * engine, the device thread stands aside; on a loaded machine the application's thread is
 * preempted in the middle of its pass — holding the engine — for tens of milliseconds, and
 * held SENDs and ACKs waited that long (up to 100 ms measured), enough for local ACK timeouts
 * and, eight in a row, RETRY_EXC_ERR. A held packet must leave when due however busy the engine
 * is. Here the application's thread is stopped inside its own pass (right after it sent the
 * SEND it posted) and the device's clock is the test's, so nothing depends on timing.
 */
class HeldPacketReleaseTest {
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    @Test
    void aHeldPacketLeavesWhenDueWhileTheApplicationsThreadIsStoppedInItsPass() throws Exception {
        Impairment everyPacketHeld2ms = Impairment.parse("reorder=100%/gap:1000/hold:2ms,seed=12");
        StoppingDatagrams[] made = new StoppingDatagrams[1];
        ImpairedDatagrams[] impairedMade = new ImpairedDatagrams[1];
        DatagramsFactory impairedFactory = ImpairedDatagrams.factory(everyPacketHeld2ms,
                local -> made[0] = new StoppingDatagrams(UdpDatagrams.bind(local.getAddress(), local.getPort())), clock::get);
        SoftOptions options = SoftOptions.defaults().clock(clock::get).privateCounters().datagrams(local -> {
            impairedMade[0] = (ImpairedDatagrams) impairedFactory.open(local);
            return new AwaitWithoutRelease(impairedMade[0], made[0]);
        });
        try (RcPair p = new RcPair(FreshDevices.fresh("held", options), Mtu.MTU_1024, 20, 7, 7, 12, 4096)) {
            ImpairedDatagrams impaired = impairedMade[0];
            p.postRecv(1, 0, 64);
            Thread app = Thread.ofPlatform().daemon().name("application").start(() -> {
                WorkCompletion[] wc = {new WorkCompletion()};
                p.cqA.poll(wc); // the application polls: from now on the device thread stands aside
                p.send(2, 0, 64); // post_send's pass (or a poll's after it) sends the SEND: held 2 ms
                while (impaired.held() == 0) {
                    p.cqA.poll(wc);
                }
                made[0].stopNextReceiveOn(Thread.currentThread());
                while (made[0].stopped.getCount() > 0) {
                    p.cqA.poll(wc); // the next pass stops in its receive, holding the engine
                }
            });
            try {
                assertThat(made[0].stopped.await(10, TimeUnit.SECONDS)).as("the application's pass stopped").isTrue();
                assertThat(impaired.held()).as("the SEND is held back").isEqualTo(1);

                p.hca().noteAppActive(); // still polling, as far as the device thread can tell
                clock.addAndGet(3_000_000L); // past the 2 ms hold
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (impaired.held() > 0 && System.nanoTime() < deadline) {
                    p.hca().noteAppActive();
                    Thread.onSpinWait();
                }
                assertThat(impaired.counters()).as("the held SEND left while the application's pass was stopped")
                        .containsEntry("held", 0L).containsEntry("wire", 1L);
            } finally {
                made[0].resume.countDown(); // the pass goes on, and the device can close
                app.join(10_000);
            }
            assertThat(RcPair.poll(p.cqB, 1, java.time.Duration.ofSeconds(10))).as("and arrived").hasSize(1);
        }
    }

    /**
     * The impaired channel, except that {@link #await} only waits: were the test's thread
     * preempted for 5 ms, the device thread would take over the engine, find it busy, and on its
     * way to sleep release what is due by the path it takes when nobody polls (tested in
     * ImpairedDatagramsTest). Without that path the test sees only the one it is about.
     */
    private static final class AwaitWithoutRelease implements Datagrams {
        private final ImpairedDatagrams impaired;
        private final StoppingDatagrams socket;

        AwaitWithoutRelease(ImpairedDatagrams impaired, StoppingDatagrams socket) {
            this.impaired = impaired;
            this.socket = socket;
        }

        @Override
        public InetSocketAddress localAddress() {
            return impaired.localAddress();
        }

        @Override
        public boolean send(ByteBuffer packet, InetSocketAddress destination) throws IOException {
            return impaired.send(packet, destination);
        }

        @Override
        public InetSocketAddress receive(ByteBuffer buffer) throws IOException {
            return impaired.receive(buffer);
        }

        @Override
        public void await(long timeoutNanos) throws IOException {
            socket.real.await(timeoutNanos);
        }

        @Override
        public void wakeup() {
            impaired.wakeup();
        }

        @Override
        public long releaseDue() {
            return impaired.releaseDue();
        }

        @Override
        public void close() throws IOException {
            impaired.close();
        }
    }

    /** A real socket whose receive, on one chosen thread, stops until the test resumes it. */
    private static final class StoppingDatagrams extends ForwardingDatagrams {
        final CountDownLatch stopped = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);
        private volatile Thread stopOn;

        StoppingDatagrams(UdpDatagrams real) {
            super(real);
        }

        void stopNextReceiveOn(Thread t) {
            stopOn = t;
        }

        @Override
        public boolean send(ByteBuffer packet, InetSocketAddress destination) throws IOException {
            return real.send(packet, destination);
        }

        @Override
        public InetSocketAddress receive(ByteBuffer buffer) throws IOException {
            if (Thread.currentThread() == stopOn) {
                stopOn = null;
                stopped.countDown();
                try {
                    resume.await(); // preempted in the middle of its pass, holding the engine
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return real.receive(buffer);
        }
    }
}
