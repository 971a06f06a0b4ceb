package org.jrdma.soft.engine;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jrdma.soft.net.Datagrams;

/**
 * Who runs the engine, and when (Agrona's AgentRunner and AgentInvoker in one). A pass runs on
 * whichever thread asks first — the device's own thread, a poller whose CQ is empty, a poster
 * with something to send (like UCX's worker progress) — one at a time, under the engine lock.
 * With {@link ThreadingMode#DEDICATED} the device's thread loops, idling by its
 * {@link IdleStrategy} between passes that found nothing, and standing aside while the
 * application drives the engine itself; with {@link ThreadingMode#INVOKER} only the caller's
 * {@link #doWork()} runs a pass, so tests step the transport deterministically.
 *
 * <p>Lock order: the engine lock, then a QP's monitor.
 */
final class EngineRunner {
    /** A bounded amount of engine work; what the runner runs. */
    interface Pass {
        /** One pass; {@code sendFirst} when a post asked for it. Returns the work done. */
        int doWork(boolean sendFirst) throws IOException;

        /** Whether an ACK is held for a later pass (read without the engine lock). */
        boolean acksHeld();

        /** Nanoseconds until the earliest armed timer (Long.MAX_VALUE when none). */
        long nanosUntilNextTimer(long now);

        /** Sends every held ACK now (the device is stopping). */
        void flushAllAcks();
    }

    private static final System.Logger LOG = System.getLogger(EngineRunner.class.getName());
    private static final long MAX_PARK_NANOS = 50_000_000L;
    /** The shortest park: a timer due sooner is served by the next pass anyway. */
    private static final long MIN_PARK_NANOS = 1_000_000L;
    /**
     * An application that progressed this recently is considered to be polling, and the engine
     * thread stays parked. Long enough that a polling thread preempted for a few milliseconds on
     * a busy machine does not bring the engine thread in to compete with it for the cores (two
     * spinning threads per process measured 10–25 % slower WRITE bandwidth at 0.5 ms); an
     * application that stops polling to block says so ({@link #appBlocking}) and is not kept
     * waiting for it.
     */
    static final long APP_ACTIVE_NANOS = 5_000_000L;
    /** The longest an ACK waits for the next pass when the application stops polling. */
    static final long ACK_HOLD_NANOS = 1_000_000L;

    private final String deviceName;
    private final Pass pass;
    private final Datagrams datagrams;
    private final NanoClock clock;
    private final ThreadingMode threading;
    private final IdleStrategy idle;
    private final Consumer<IOException> onFailure;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean running = true;
    private volatile boolean pendingWork;
    private volatile boolean sleeping;
    private volatile long lastAppProgressNanos = System.nanoTime() - (1L << 40);
    /** An application thread waits for a completion event and runs the engine itself ({@link #driveUntil}). */
    private final AtomicBoolean driving = new AtomicBoolean();
    /** The thread of {@link #driveUntil} while it drives, else null. */
    private volatile Thread driver;
    /** Waiters blocked on a channel while another thread drove ({@link #waiterBlocks}). */
    private final AtomicInteger blockedWaiters = new AtomicInteger();
    private Thread thread;

    /**
     * @param idle      makes the engine thread's idle strategy from the runner's way to park
     * @param onFailure told when a pass fails with an I/O error while running (the socket is gone)
     */
    EngineRunner(String deviceName, Pass pass, Datagrams datagrams, NanoClock clock, ThreadingMode threading,
            Function<IdleStrategy.Parker, IdleStrategy> idle, Consumer<IOException> onFailure) {
        this.deviceName = deviceName;
        this.pass = pass;
        this.datagrams = datagrams;
        this.clock = clock;
        this.threading = threading;
        this.idle = idle.apply(this::park);
        this.onFailure = onFailure;
    }

    /** Starts the device's thread when the threading mode has one. */
    void start() {
        if (threading == ThreadingMode.DEDICATED) {
            thread = Thread.ofPlatform().daemon().name("jrdma-soft-" + deviceName).start(this::run);
        }
    }

    /**
     * Runs one bounded pass — receive, timers, send — unless another thread is running one.
     * Returns the work done (0 = idle or busy elsewhere).
     */
    int doWork() {
        return doWork(false);
    }

    private int doWork(boolean sendFirst) {
        if (!lock.tryLock()) {
            return 0;
        }
        try {
            pendingWork = false;
            return pass.doWork(sendFirst);
        } catch (IOException e) {
            if (running) {
                onFailure.accept(e);
            }
            return 0;
        } finally {
            lock.unlock();
            if (driver != null && driver != Thread.currentThread()) {
                // A waiter drives the engine and sleeps in the socket for as long as the timers and
                // ACKs of its own last pass allowed; this pass may have held an ACK, armed a timer or
                // taken the datagram that would have woken it: it must look again.
                datagrams.wakeup();
            }
        }
    }

    /** Runs {@code action} under the engine lock, waiting for a pass in progress. */
    void locked(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Progress driven by an application thread (an empty poll, a post): do the work now on
     * this thread, and let the engine thread stand aside while the application is this busy,
     * so that on a small machine the two do not compete for the same cores.
     */
    void progressFromApp() {
        if (threading == ThreadingMode.INVOKER) {
            return; // the caller steps the engine itself, with doWork(), and nothing else does
        }
        lastAppProgressNanos = System.nanoTime();
        doWork(false);
    }

    /**
     * {@link #progressFromApp} after a post_send: the requesters send first. When the QP had
     * WRs outstanding before this post ({@code behindOthers}) and the application polls (it
     * progressed within {@link #APP_ACTIVE_NANOS}), no pass runs: the pass of its next empty
     * poll sends this WR together with the others it posts meanwhile — one batch of packets, one
     * sendmmsg, where a pass per post sent one packet per system call (a pipelined 4 KiB
     * write_bw posts 128 WRs between polls). A post on an idle queue (a ping-pong) still runs
     * its pass at once. Should the application stop polling without blocking, the device
     * thread takes over when the window ends, as for a held ACK.
     */
    void progressAfterPost(boolean behindOthers) {
        if (threading == ThreadingMode.INVOKER) {
            return;
        }
        long now = System.nanoTime();
        if (behindOthers && now - lastAppProgressNanos < APP_ACTIVE_NANOS) {
            pendingWork = true;
            if (driver != null) {
                datagrams.wakeup(); // a waiter drives, asleep in the socket: its next pass sends it
            }
            return;
        }
        lastAppProgressNanos = now;
        doWork(true);
    }

    /** The application is polling (and found completions): the engine thread stays parked. */
    void noteAppActive() {
        if (threading != ThreadingMode.INVOKER) {
            lastAppProgressNanos = System.nanoTime();
        }
    }

    /**
     * The application is about to block (a completion channel or async event wait): the engine
     * thread takes over at once instead of when the polling window runs out.
     */
    void appBlocking() {
        if (threading == ThreadingMode.INVOKER || thread == null) {
            return;
        }
        lastAppProgressNanos = System.nanoTime() - (1L << 40);
        LockSupport.unpark(thread);
    }

    /**
     * The caller waits for what a pass produces — a completion event, {@code done} — and runs
     * the engine itself meanwhile, sleeping in the socket between passes, so that an arriving
     * packet wakes the waiter directly: one hop, where waiting on a condition takes two (the
     * packet wakes the device thread, whose pass then wakes the waiter) and keeps the device
     * thread spinning beside it on a small machine. Held ACKs leave on its next pass and no
     * sleep outlasts the earliest timer, as on the device thread; the device thread stands
     * aside meanwhile. Returns false at once, having done nothing, in INVOKER mode or when
     * another thread drives already (the caller then waits as before); else true when
     * {@code done} or the deadline came.
     */
    boolean driveUntil(BooleanSupplier done, long deadlineNanos) {
        if (threading == ThreadingMode.INVOKER || thread == null || !driving.compareAndSet(false, true)) {
            return false;
        }
        driver = Thread.currentThread();
        try {
            datagrams.wakeup(); // the device thread, if asleep in the socket, leaves it to us
            while (running && !Thread.currentThread().isInterrupted()) {
                lastAppProgressNanos = System.nanoTime();
                int work = doWork(false);
                if (done.getAsBoolean()) {
                    return true;
                }
                long now = System.nanoTime();
                long left = deadlineNanos - now;
                if (left <= 0) {
                    return true;
                }
                if (work > 0 || pass.acksHeld()) {
                    continue; // more may be waiting; an ACK held in this pass leaves in the next
                }
                long wait = Math.min(Math.min(left, pass.nanosUntilNextTimer(clock.nanoTime())), datagrams.releaseDue());
                if (wait <= 0 || done.getAsBoolean()) {
                    continue; // a timer is due now, or the event came from another thread's pass
                }
                // An event posted from here on wakes the socket (eventPosted), so it is not slept through.
                datagrams.await(wait);
            }
            return true;
        } catch (IOException e) {
            if (running) {
                onFailure.accept(e);
            }
            return true;
        } finally {
            driver = null;
            driving.set(false);
            lastAppProgressNanos = System.nanoTime(); // it polls next: the device thread keeps standing aside
            if (blockedWaiters.get() > 0) {
                appBlocking(); // unless others still wait on a channel: the device thread serves them now
            }
        }
    }

    /** A waiter blocks on a channel while another thread drives: the device thread serves it once that one stops. */
    void waiterBlocks() {
        blockedWaiters.incrementAndGet();
        appBlocking();
    }

    /** The waiter of {@link #waiterBlocks} returned. */
    void waiterDone() {
        blockedWaiters.decrementAndGet();
    }

    /** A completion event was queued on a channel: a waiter driving the engine asleep in the socket wakes. */
    void eventPosted() {
        if (driving.get()) {
            datagrams.wakeup();
        }
    }

    /** Tells the engine that there is something to send (called after post_send / modify). */
    void wake() {
        pendingWork = true;
        if (sleeping) {
            datagrams.wakeup();
        }
    }

    private void run() {
        while (running) {
            // What an impairment holds back leaves when due, not at the engine's next pass: the
            // application's thread may sit preempted in the middle of its pass, holding the engine.
            long due = datagrams.releaseDue();
            if (driving.get()) {
                // A waiter runs the engine and sleeps in the socket (driveUntil): stay off the
                // cores; it hands back by polling (the window below) or blocking (appBlocking).
                LockSupport.parkNanos(Math.min(due, APP_ACTIVE_NANOS));
                idle.reset();
                continue;
            }
            long quiet = System.nanoTime() - lastAppProgressNanos;
            if (quiet < APP_ACTIVE_NANOS) {
                // The application's own polls drive the engine; stay off the cores until it has
                // been quiet for the whole window (or says it blocks: appBlocking unparks us) —
                // but an ACK held for its next pass is not left waiting longer than ACK_HOLD.
                boolean ackWaiting = pass.acksHeld();
                if (ackWaiting && quiet >= ACK_HOLD_NANOS) {
                    doWork();
                } else {
                    LockSupport.parkNanos(Math.min(due, ackWaiting ? ACK_HOLD_NANOS - quiet : APP_ACTIVE_NANOS - quiet));
                }
                idle.reset();
                continue;
            }
            int work;
            try {
                work = doWork();
            } catch (RuntimeException e) {
                // A bug must not kill the device silently: report it and keep serving.
                LOG.log(System.Logger.Level.ERROR, "jrdma-soft " + deviceName + ": engine error", e);
                work = 0;
            }
            idle.idle(work);
        }
    }

    /**
     * Blocks until a datagram arrives, a post wakes us, or the next timer is due. The
     * sleeping/pendingWork pair is a Dekker handshake: a post either sees us sleeping and
     * wakes the selector, or we see its pendingWork and do not sleep.
     */
    private void park() {
        sleeping = true;
        try {
            if (pendingWork || !running || pass.acksHeld()) {
                return;
            }
            long wait = pass.nanosUntilNextTimer(clock.nanoTime());
            datagrams.await(Math.min(Math.max(wait, MIN_PARK_NANOS), MAX_PARK_NANOS));
        } catch (IOException e) {
            if (running) {
                LOG.log(System.Logger.Level.WARNING, "jrdma-soft " + deviceName + ": wait failed", e);
            }
        } finally {
            sleeping = false;
        }
    }

    /** Stops the device's thread (waiting up to 5 s for it), then sends the ACKs still held. */
    void stop() {
        running = false;
        datagrams.wakeup();
        if (thread != null) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        locked(pass::flushAllAcks); // the last messages received are acknowledged before the socket closes
    }

    IdleStrategy idleStrategy() {
        return idle;
    }
}
