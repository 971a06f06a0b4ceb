package org.jrdma.soft.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jrdma.soft.net.Datagrams;
import org.junit.jupiter.api.Test;

/**
 * The engine runner with a scripted pass and a socket that only records its waits: who runs a
 * pass, the park's Dekker handshake and its timeout, failures, and the dedicated thread driven
 * by its idle strategy. The clock is a field the test sets.
 */
class EngineRunnerTest {
    /** A pass that returns {@link #work}, records how it was asked, and can fail. */
    private static final class ScriptedPass implements EngineRunner.Pass {
        volatile int work;
        volatile IOException failure;
        volatile boolean acksHeld;
        volatile long nextTimerNanos = Long.MAX_VALUE;
        final List<Boolean> sendFirst = new ArrayList<>();
        long timerAskedAt = -1;
        int flushes;

        @Override
        public synchronized int doWork(boolean first) throws IOException {
            sendFirst.add(first);
            if (failure != null) {
                throw failure;
            }
            return work;
        }

        @Override
        public boolean acksHeld() {
            return acksHeld;
        }

        @Override
        public long nanosUntilNextTimer(long now) {
            timerAskedAt = now;
            return nextTimerNanos;
        }

        @Override
        public void flushAllAcks() {
            flushes++;
        }

        synchronized int passes() {
            return sendFirst.size();
        }
    }

    /** Records each wait's timeout (returning at once) and counts wake-ups. */
    private static final class WaitingDatagrams implements Datagrams {
        final List<Long> awaits = new ArrayList<>();
        final CountDownLatch awaited = new CountDownLatch(3);
        int wakeups;

        @Override
        public InetSocketAddress localAddress() {
            return new InetSocketAddress("127.0.0.1", 4791);
        }

        @Override
        public boolean send(ByteBuffer packet, InetSocketAddress destination) {
            return true;
        }

        @Override
        public InetSocketAddress receive(ByteBuffer buffer) {
            return null;
        }

        @Override
        public synchronized void await(long timeoutNanos) {
            awaits.add(timeoutNanos);
            awaited.countDown();
        }

        @Override
        public synchronized void wakeup() {
            wakeups++;
        }

        @Override
        public void close() {
        }
    }

    private final ScriptedPass pass = new ScriptedPass();
    private final WaitingDatagrams datagrams = new WaitingDatagrams();
    private final List<IOException> failures = new ArrayList<>();
    private long clockNanos = 7_000;
    private IdleStrategy.Parker parker;

    private EngineRunner runner(ThreadingMode mode) {
        return new EngineRunner("runner-test", pass, datagrams, () -> clockNanos, mode, p -> {
            parker = p;
            return new ParkIdle(p);
        }, failures::add);
    }

    @Test
    void aPassRunsOnTheCallersThreadAndReturnsItsWork() {
        EngineRunner r = runner(ThreadingMode.INVOKER);
        pass.work = 5;

        assertThat(r.doWork()).isEqualTo(5);
        assertThat(pass.sendFirst).containsExactly(false);
    }

    @Test
    void withTheCallerDrivingTheApplicationsProgressRunsNoPass() {
        EngineRunner r = runner(ThreadingMode.INVOKER);
        r.progressFromApp();
        r.progressAfterPost(false);
        r.noteAppActive();
        r.appBlocking();

        assertThat(pass.passes()).isZero();
    }

    @Test
    void theApplicationsProgressRunsAPassAndAPostSendsFirst() {
        EngineRunner r = runner(ThreadingMode.DEDICATED); // not started: no thread competes

        r.progressFromApp();
        r.progressAfterPost(false);

        assertThat(pass.sendFirst).containsExactly(false, true);
    }

    @Test
    void aPostBehindOutstandingWorkWaitsForThePollersNextPassButNotForAnIdleApplication() {
        EngineRunner r = runner(ThreadingMode.DEDICATED); // not started: no thread competes

        r.progressAfterPost(true); // no poll yet: the application is not known to be polling
        r.noteAppActive();         // it polls
        r.progressAfterPost(true); // behind others: its next poll's pass sends it
        r.progressAfterPost(false); // an idle queue: sent at once
        r.progressFromApp();

        assertThat(pass.sendFirst).containsExactly(true, true, false);
    }

    @Test
    void aPassInProgressElsewhereIsNotWaitedFor() throws Exception {
        EngineRunner r = runner(ThreadingMode.INVOKER);
        pass.work = 1;
        int[] elsewhere = {-1};
        r.locked(() -> {
            Thread other = Thread.ofPlatform().start(() -> elsewhere[0] = r.doWork());
            try {
                other.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });

        assertThat(elsewhere[0]).isZero();
        assertThat(pass.passes()).isZero();
    }

    @Test
    void aSocketFailureIsReportedWhileRunningOnly() {
        EngineRunner r = runner(ThreadingMode.INVOKER);
        pass.failure = new IOException("socket closed");

        assertThat(r.doWork()).isZero();
        assertThat(failures).containsExactly(pass.failure);

        r.stop();
        r.doWork();
        assertThat(failures).hasSize(1);
    }

    /** The park waits for the next timer, at least 1 ms and at most 50 ms, asking at the device clock's time. */
    @Test
    void theParkWaitsForTheNextTimerWithinBounds() {
        runner(ThreadingMode.INVOKER);
        for (long next : new long[] {3_000_000L, Long.MAX_VALUE, 10L, 0L}) {
            pass.nextTimerNanos = next;
            parker.park();
        }

        assertThat(datagrams.awaits).containsExactly(3_000_000L, 50_000_000L, 1_000_000L, 1_000_000L);
        assertThat(pass.timerAskedAt).isEqualTo(7_000);
    }

    /** The Dekker handshake: a post before the park, or an ACK held, keeps it from sleeping. */
    @Test
    void thereIsNoParkWhileWorkIsPendingOrAnAckIsHeld() {
        EngineRunner r = runner(ThreadingMode.INVOKER);
        r.wake();
        parker.park();
        assertThat(datagrams.awaits).isEmpty();
        assertThat(datagrams.wakeups).as("nobody was asleep").isZero();

        r.doWork(); // a pass takes the pending work
        pass.acksHeld = true;
        parker.park();
        assertThat(datagrams.awaits).isEmpty();

        pass.acksHeld = false;
        parker.park();
        assertThat(datagrams.awaits).hasSize(1);
    }

    @Test
    void stoppingSendsTheHeldAcks() {
        EngineRunner r = runner(ThreadingMode.INVOKER);
        r.stop();

        assertThat(pass.flushes).isEqualTo(1);
        assertThat(datagrams.wakeups).isEqualTo(1);
    }

    /** The dedicated thread runs passes and, finding nothing, idles by its strategy (here: parks every time). */
    @Test
    void theDedicatedThreadIdlesByItsStrategy() throws Exception {
        EngineRunner r = runner(ThreadingMode.DEDICATED);
        r.start();
        try {
            assertThat(datagrams.awaited.await(10, TimeUnit.SECONDS)).as("three parks").isTrue();
        } finally {
            r.stop();
        }
        assertThat(pass.passes()).isGreaterThanOrEqualTo(3);
        assertThat(pass.sendFirst).containsOnly(false);
    }
}
