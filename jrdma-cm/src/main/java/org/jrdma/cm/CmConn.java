package org.jrdma.cm;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.concurrent.ScheduledFuture;
import org.jrdma.verbs.Mtu;

/**
 * The IB CM side of one id: its state, comm IDs, the message it resends on each timeout, the
 * answer it resends when the peer repeats itself, and what was negotiated. Every method runs
 * under its agent's lock; the protocol steps are in {@link ActiveSide}, {@link PassiveSide},
 * {@link Disconnect} and {@link SidrSide}.
 */
final class CmConn {
    static final int ETIMEDOUT = -110;
    private static final SecureRandom RANDOM = new SecureRandom();

    final CmId id;
    final CmAgent agent;
    CmState state = CmState.IDLE;
    int localCommId;
    int remoteCommId;
    InetAddress peer;
    /** The TID of this connection's REQ (the active side's, reused by REP, RTU and REJ, §7.10). */
    long tid;
    /** The TID of the peer's DREQ, which our DREP reuses. */
    long dreqTid;
    /** The listener that produced this passive connection (for the passive key's removal). */
    PassiveKey passiveKey;

    /** What a timeout resends (REQ, REP, DREQ, SIDR_REQ), and how often it may still. */
    private byte[] retransmit;
    private int retriesLeft;
    private ScheduledFuture<?> timer;
    private int timerGeneration;
    /** What a duplicate of the peer's last message is answered with (REP, RTU, DREP, SIDR_REP). */
    byte[] lastAnswer;

    /** This side's random 24-bit sequence number: its QP's rq_psn, advertised as the Starting PSN (§7.8). */
    final int seq = RANDOM.nextInt(1 << 24);
    int remoteQpn;
    /** The peer's advertised Starting PSN: our sq_psn. */
    int remotePsn;
    int remoteQkey;
    /** max_dest_rd_atomic of our QP: the reads we serve. */
    int responderResources;
    /** max_rd_atomic of our QP: the reads we issue. */
    int initiatorDepth;
    int retryCount;
    int rnrRetryCount;
    Mtu mtu;
    int ackTimeout;
    boolean flowControl;
    boolean srq;

    record PassiveKey(InetAddress peer, int remoteCommId) {
    }

    CmConn(CmId id, CmAgent agent) {
        this.id = id;
        this.agent = agent;
    }

    CmOptions options() {
        return id.options();
    }

    void send(byte[] mad) {
        agent.send(peer, mad);
    }

    /** Sends {@code mad} and resends it on every response timeout until answered or out of retries. */
    void sendWithRetry(byte[] mad) {
        retransmit = mad;
        retriesLeft = options().maxRetries();
        send(mad);
        arm();
    }

    /** Restarts the response timer (also on an MRA: the peer asked for more time). */
    void arm() {
        cancelTimer();
        int generation = timerGeneration;
        timer = agent.schedule(options().responseTimeout(), () -> fire(generation));
    }

    void cancelTimer() {
        timerGeneration++;
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void fire(int generation) {
        if (generation != timerGeneration || retransmit == null) {
            return;
        }
        if (retriesLeft > 0) {
            retriesLeft--;
            agent.counters().add(CmCounters.RETRANSMITTED);
            send(retransmit);
            arm();
            return;
        }
        retransmit = null;
        timer = null;
        timedOut();
    }

    /** No answer after every retry: UNREACHABLE for a REQ, REP or SIDR_REQ; a DISCONNECTED with ETIMEDOUT for a DREQ. */
    private void timedOut() {
        switch (state) {
            case REQ_SENT, REP_SENT, SIDR_REQ_SENT -> {
                toIdle();
                emit(CmEventType.UNREACHABLE, ETIMEDOUT, null, null, null);
            }
            case DREQ_SENT -> {
                emit(CmEventType.DISCONNECTED, ETIMEDOUT, null, null, null);
                enterTimewait();
            }
            default -> {
            }
        }
    }

    /** Timewait: a repeated DREQ is still answered; TIMEWAIT_EXIT when it ends. */
    void enterTimewait() {
        cancelTimer();
        retransmit = null;
        state = CmState.TIMEWAIT;
        int generation = timerGeneration;
        timer = agent.schedule(options().timewait(), () -> {
            if (generation == timerGeneration && state == CmState.TIMEWAIT) {
                toIdle();
                emit(CmEventType.TIMEWAIT_EXIT, 0, null, null, null);
            }
        });
    }

    /** Back to IDLE: no timer, forgotten by the agent. */
    void toIdle() {
        cancelTimer();
        retransmit = null;
        state = CmState.IDLE;
        agent.forget(this);
    }

    void emit(CmEventType type, int status, byte[] privateData, ConnParam param, UdParam ud) {
        id.emit(type, status, privateData, param, ud, null);
    }
}
