package org.jrdma.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The base of every suite: gets the provider's fixture and a context before each test, closes
 * what the test tracked and gives the contexts back after it, and offers the waits and
 * completion checks the suites share.
 */
public abstract class ProviderSuite {
    /** For a provider's subclass, which supplies the fixture. */
    public ProviderSuite() {
    }

    private final Closer closer = new Closer();
    /** The provider under test, from {@link #fixture()}. */
    protected ProviderFixture fx;
    /** The context every test works in, from {@link ProviderFixture#openContext()}. */
    protected Context context;
    private Context peerContext;

    /**
     * The provider under test; a subclass returns its fixture (new or shared).
     *
     * @return the fixture, never null
     */
    protected abstract ProviderFixture fixture();

    /**
     * Before each test: takes the fixture and opens the test's context.
     *
     * @throws NullPointerException if the fixture or its context is null
     */
    @BeforeEach
    protected final void openProvider() {
        fx = Objects.requireNonNull(fixture(), "fixture() returned null");
        context = Objects.requireNonNull(fx.openContext(), "openContext() returned null");
    }

    /** After each test: closes what it tracked, newest first, then gives its contexts back. */
    @AfterEach
    protected final void releaseProvider() {
        try {
            closer.close();
        } finally {
            Context peer = peerContext;
            peerContext = null;
            try {
                if (peer != null && peer != context) {
                    fx.releaseContext(peer);
                }
            } finally {
                if (context != null) {
                    fx.releaseContext(context);
                }
            }
        }
    }

    /**
     * Closes {@code resource} after the test, before anything created earlier.
     *
     * @param <T> the resource's type
     * @param resource the resource
     * @return {@code resource}
     */
    protected final <T extends AutoCloseable> T track(T resource) {
        return closer.add(resource);
    }

    /**
     * Closes a tracked resource now; it stays tracked if that fails.
     *
     * @param resource a tracked resource
     */
    protected final void closeNow(AutoCloseable resource) {
        closer.closeNow(resource);
    }

    /**
     * The context of a Loopback's second QP ({@link ProviderFixture#openPeerContext()}).
     *
     * @return the peer context, opened on first use and given back after the test
     */
    protected final Context peerContext() {
        if (peerContext == null) {
            peerContext = Objects.requireNonNull(fx.openPeerContext(), "openPeerContext() returned null");
        }
        return peerContext;
    }

    /**
     * A connected pair, closed after the test.
     *
     * @param options how to build it
     * @return the pair
     */
    protected final Loopback loopback(Loopback.Options options) {
        return track(Loopback.open(context, peerContext(), fx.port(), fx.gidIndex(), options));
    }

    /**
     * Skips the test unless the provider has {@code feature}.
     *
     * @param feature the feature the test needs
     */
    protected final void assumeSupported(Feature feature) {
        assumeTrue(fx.supports(feature), () -> "provider lacks " + feature + ": " + feature.description());
    }

    /**
     * Skips the test unless the port's active MTU (and its peer's) reaches {@code mtu}.
     *
     * @param mtu the path MTU the test needs
     */
    protected final void assumeMtu(Mtu mtu) {
        for (Context c : List.of(context, peerContext())) {
            Mtu active = c.queryPort(fx.port()).activeMtu();
            assumeTrue(active.bytes() >= mtu.bytes(), () -> "path MTU " + mtu.bytes() + " exceeds the active MTU "
                    + active.bytes() + " of " + c.device().name());
        }
    }

    /**
     * The status expected of {@code wc}, a WR whose local SGE has a bad lkey: LOC_PROT_ERR. A
     * provider without {@link Feature#BAD_LKEY_IS_LOCAL_PROTECTION_ERROR} may say LOC_QP_OP_ERR
     * instead (rxe 6.1 does for the SGEs its requester gathers; a READ's scatter still says
     * LOC_PROT_ERR), and that is accepted from it alone.
     *
     * @param wc the completion of the WR with the bad lkey
     * @return the status to expect of it
     */
    protected final org.jrdma.verbs.WcStatus badLkeyStatus(WorkCompletion wc) {
        boolean rxeStyle = !fx.supports(Feature.BAD_LKEY_IS_LOCAL_PROTECTION_ERROR)
                && wc.status == org.jrdma.verbs.WcStatus.LOC_QP_OP_ERR;
        return rxeStyle ? org.jrdma.verbs.WcStatus.LOC_QP_OP_ERR : org.jrdma.verbs.WcStatus.LOC_PROT_ERR;
    }

    /**
     * Is the port RoCE (Ethernet link layer), where every receive completion has a GRH?
     *
     * @return true on an Ethernet link layer
     */
    protected final boolean isRoce() {
        return "Ethernet".equalsIgnoreCase(context.queryPort(fx.port()).linkLayer());
    }

    /**
     * Waits until {@code condition} holds, driving the provider's progress, up to the fixture's
     * deadline.
     *
     * @param condition polled until it holds
     * @param what what is awaited, for the failure
     */
    protected final void await(BooleanSupplier condition, String what) {
        Await.until(fx::progress, condition, fx.deadline(), () -> what);
    }

    /**
     * As {@link #await(BooleanSupplier, String)}, with the failure's text made only on failure.
     *
     * @param condition polled until it holds
     * @param what what is awaited, evaluated only on failure
     */
    protected final void await(BooleanSupplier condition, Supplier<String> what) {
        Await.until(fx::progress, condition, fx.deadline(), what);
    }

    /**
     * Polls {@code cq} until exactly {@code n} completions have arrived and returns copies of
     * them, oldest first. Never takes more than {@code n}, so an extra one stays in the CQ for
     * {@link #assertNoCompletion} to find.
     *
     * @param cq the CQ to poll
     * @param n how many completions
     * @param what what they are, for the failure
     * @return copies of the {@code n} completions
     */
    protected final List<WorkCompletion> awaitCompletions(CompletionQueue cq, int n, String what) {
        List<WorkCompletion> got = new ArrayList<>(n);
        WorkCompletion[] wc = newCompletions(Math.min(n, 64));
        await(() -> {
            int k = cq.poll(wc, Math.min(wc.length, n - got.size()));
            for (int i = 0; i < k; i++) {
                WorkCompletion copy = new WorkCompletion();
                copy.copyFrom(wc[i]);
                got.add(copy);
            }
            return got.size() >= n;
        }, () -> n + " completion(s): " + what + "; got " + got.size() + ": " + got);
        return got;
    }

    /**
     * Polls {@code cq} until one completion arrives.
     *
     * @param cq the CQ to poll
     * @param what what it is, for the failure
     * @return a copy of the completion
     */
    protected final WorkCompletion awaitCompletion(CompletionQueue cq, String what) {
        return awaitCompletions(cq, 1, what).getFirst();
    }

    /**
     * Polls {@code cq} for the fixture's settle time and fails if any completion shows up.
     *
     * @param cq the CQ to watch
     * @param what what it belongs to, for the failure
     */
    protected final void assertNoCompletion(CompletionQueue cq, String what) {
        WorkCompletion[] wc = newCompletions(1);
        Await.holdsFor(fx::progress, () -> cq.poll(wc) == 0, fx.settleTime(),
                () -> "unexpected completion " + wc[0] + " on " + what);
    }

    /**
     * An array of fresh completions to poll into.
     *
     * @param n how many, at least 1 are made
     * @return the array
     */
    protected static WorkCompletion[] newCompletions(int n) {
        WorkCompletion[] wc = new WorkCompletion[Math.max(n, 1)];
        for (int i = 0; i < wc.length; i++) {
            wc[i] = new WorkCompletion();
        }
        return wc;
    }
}
