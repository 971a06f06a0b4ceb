package org.jrdma.testkit;

/**
 * Optional behaviour a provider may lack. A suite that needs one asks
 * {@link ProviderFixture#supports(Feature)} and skips (never fakes) the test when the answer is no.
 */
public enum Feature {
    /** RTS → SQD and the SQD state (send-queue drain). rxe has it; a provider may refuse it. */
    SQD("the send-queue-drained state (RTS → SQD)"),

    /** ibv_req_notify_cq(solicited_only = 1): only SOLICITED or error completions raise an event. */
    SOLICITED("solicited-only completion events"),

    /**
     * QPNs drawn at random (RELIABILITY-SECURITY SEC-04, DESIGN "Secure by default"). Hardware
     * and rxe hand out pool indices in sequence, so a native provider leaves this out.
     */
    RANDOM_QPN("QP numbers drawn at random rather than in sequence"),

    /**
     * Send completions carry byte_len = the WR's total length, as rxe reports them
     * (ROCEV2-FACTS §3.7); ibv_poll_cq.3 leaves byte_len of a send completion undefined.
     */
    SEND_COMPLETION_BYTE_LEN("byte_len on send completions");

    private final String description;

    Feature(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
