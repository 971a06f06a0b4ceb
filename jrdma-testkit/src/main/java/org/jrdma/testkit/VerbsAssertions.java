package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.regex.Pattern;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/** Assertions on verbs errors and completions. */
public final class VerbsAssertions {
    private VerbsAssertions() {
    }

    /**
     * Runs {@code call}, which must throw a {@link VerbsException} with {@code errno}; returns it.
     *
     * @param errno the errno expected
     * @param call the call
     * @return the exception
     */
    public static VerbsException assertFails(Errno errno, ThrowingCallable call) {
        VerbsException e = catchThrowableOfType(VerbsException.class, call);
        assertThat(e).as("expected a VerbsException with %s", errno).isNotNull();
        assertThat(e.errno()).as("errno of \"%s\"", e.getMessage()).isEqualTo(errno);
        return e;
    }

    /**
     * Runs {@code post}, which must throw a {@link PostException} (the failure of a post list)
     * with {@code errno}; returns it.
     *
     * @param errno the errno expected
     * @param post the post
     * @return the exception
     */
    public static PostException assertPostFails(Errno errno, ThrowingCallable post) {
        VerbsException e = assertFails(errno, post);
        assertThat(e).as("a post's failure").isInstanceOf(PostException.class);
        return (PostException) e;
    }

    /**
     * The message names {@code word} as a whole word ({@code AV} must not match inside
     * {@code AVAIL}): "Errors say what to do" (DESIGN).
     *
     * @param e the exception
     * @param word the word its message must contain
     */
    public static void assertNames(VerbsException e, String word) {
        assertThat(e.getMessage()).as("message of a %s failure", e.errno())
                .containsPattern("\\b" + Pattern.quote(word) + "\\b");
    }

    /**
     * Status and wr_id, the fields valid for every completion (ibv_poll_cq.3).
     *
     * @param wc the completion
     * @param wrId the wr_id expected
     * @param status the status expected
     */
    public static void assertCompletion(WorkCompletion wc, long wrId, WcStatus status) {
        assertThat(wc.status).as("status of %s", wc).isEqualTo(status);
        assertThat(wc.wrId).as("wr_id of %s", wc).isEqualTo(wrId);
    }
}
