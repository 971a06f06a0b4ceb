package org.jrdma.shm.sys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

class FutexTest {
    private static final long WAIT = TimeUnit.SECONDS.toNanos(20);

    @Test
    void isAvailableOnThisMachine() {
        assertThat(Futex.available()).isTrue();
    }

    @Test
    void aWakeEndsAWaitWithZero() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment word = Memfd.create("jrdma-shmsys-futex", 4096, arena).segment().asSlice(0, 4);
            CompletableFuture<Integer> waiter = CompletableFuture.supplyAsync(() -> Futex.await(word, 0, WAIT));
            // the word does not change, so only a wake (or the 20 s timeout) ends the wait; wake
            // until it reports that it woke the waiter
            long deadline = System.nanoTime() + WAIT;
            int woken = 0;
            while (woken == 0 && System.nanoTime() < deadline) {
                woken = Futex.wake(word, 1);
                Thread.onSpinWait();
            }
            assertThat(woken).isEqualTo(1);
            assertThat(waiter.get(30, TimeUnit.SECONDS)).isZero();
        }
    }

    @Test
    void aChangedWordAndAWakeReleaseAWaitingLoop() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment word = arena.allocate(4, 4);
            CompletableFuture<Integer> waiter = CompletableFuture.supplyAsync(() -> {
                long deadline = System.nanoTime() + WAIT;
                int v;
                while ((v = word.get(ValueLayout.JAVA_INT_UNALIGNED, 0)) == 0 && System.nanoTime() < deadline) {
                    int rc = Futex.await(word, 0, deadline - System.nanoTime());
                    assertThat(rc).isIn(0, Futex.EAGAIN, Futex.EINTR);
                }
                return v;
            });
            word.set(ValueLayout.JAVA_INT, 0, 7);
            Futex.wake(word, Integer.MAX_VALUE);
            assertThat(waiter.get(30, TimeUnit.SECONDS)).isEqualTo(7);
        }
    }

    @Test
    void aMismatchReturnsEagainAtOnce() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(4, 4);
            word.set(ValueLayout.JAVA_INT, 0, 5);
            long t0 = System.nanoTime();
            assertThat(Futex.await(word, 4, WAIT)).isEqualTo(Futex.EAGAIN);
            assertThat(System.nanoTime() - t0).isLessThan(WAIT / 2);
            assertThat(Futex.wake(word, 1)).as("no waiter").isZero();
        }
    }

    @Test
    void aTimeoutReturnsEtimedout() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(4, 4);
            long t0 = System.nanoTime();
            assertThat(Futex.await(word, 0, TimeUnit.MILLISECONDS.toNanos(20))).isEqualTo(Futex.ETIMEDOUT);
            assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
            assertThat(Futex.await(word, 0, 0)).as("a zero timeout").isEqualTo(Futex.ETIMEDOUT);
        }
    }

    @Test
    void badWordsAreTypedErrors() throws InterruptedException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment eight = arena.allocate(8, 8);
            assertInvalid(() -> Futex.await(eight.asSlice(1, 4), 0, 1), "not 4-byte aligned");
            assertInvalid(() -> Futex.wake(eight.asSlice(2, 4), 1), "not 4-byte aligned");
            assertInvalid(() -> Futex.await(eight.asSlice(0, 2), 0, 1), "less than 4");
            assertInvalid(() -> Futex.await(MemorySegment.ofArray(new int[1]), 0, 1), "heap");
            assertInvalid(() -> Futex.await(null, 0, 1), "null");
            assertInvalid(() -> Futex.wake(eight, 0), "count 0");
            Throwable[] other = new Throwable[1];
            Thread t = new Thread(() -> other[0] = org.assertj.core.api.Assertions.catchThrowable(
                    () -> Futex.await(eight, 0, 1)));
            t.start();
            t.join();
            assertThat(other[0]).isInstanceOf(VerbsException.class).hasMessageContaining("another thread");
        }
        Arena closed = Arena.ofConfined();
        MemorySegment word = closed.allocate(4, 4);
        closed.close();
        assertInvalid(() -> Futex.await(word, 0, 1), "closed");
        assertInvalid(() -> Futex.wake(word, 1), "closed");
    }

    @Test
    void aWaitAllocatesNothingInSteadyState() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(4, 4);
            word.set(ValueLayout.JAVA_INT, 0, 1);
            Allocation.assertNoneIn(() -> {
                Futex.await(word, 0, 1000);
                Futex.wake(word, 1);
            });
        }
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String text) {
        assertThatThrownBy(call).isInstanceOfSatisfying(VerbsException.class,
                e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL)).hasMessageContaining(text);
    }
}
