package org.jrdma.examples;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import java.util.function.Function;

/**
 * Runs an example's server on a thread of its own with port 0 and hands its bound port to the
 * client side, with deadlines on both: how each test runs both roles in one JVM.
 */
final class Roles {
    static final long DEADLINE_SECONDS = 60;

    private Roles() {
    }

    /** A server running on its own thread, and the port it reported. */
    record Server<T>(CompletableFuture<T> result, int port) {
        T await() throws Exception {
            try {
                return result.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
    }

    /** Starts {@code server} (given the listening callback) and waits until it reports its port. */
    static <T> Server<T> start(Function<IntConsumer, T> server) throws Exception {
        ExampleDevice.address();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().name("example-server").daemon(true).start(() -> {
            try {
                result.complete(server.apply(port::complete));
            } catch (Throwable t) {
                result.completeExceptionally(t);
                port.completeExceptionally(t);
            }
        });
        try {
            return new Server<>(result, port.get(DEADLINE_SECONDS, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            throw new AssertionError("the server reported no port within " + DEADLINE_SECONDS + " s", e);
        }
    }
}
