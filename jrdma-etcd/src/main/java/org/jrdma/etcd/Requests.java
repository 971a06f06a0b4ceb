package org.jrdma.etcd;

import io.etcd.jetcd.KeyValue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jrdma.bootstrap.rendezvous.RendezvousException;
import org.jrdma.bootstrap.rendezvous.StoreTraffic;
import org.jrdma.bootstrap.rendezvous.StoreUnavailableException;

/**
 * Waits for jetcd's futures, each at most the request timeout, and counts what went each way. A
 * store that is down never hangs a rank: jetcd would retry (or wait for the channel) on its own,
 * so the future is given up, cancelled, and reported as {@link StoreUnavailableException}.
 */
final class Requests {
    private final String address;
    private final Duration timeout;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong received = new AtomicLong();

    Requests(String address, Duration timeout) {
        this.address = address;
        this.timeout = timeout;
    }

    String address() {
        return address;
    }

    Duration timeout() {
        return timeout;
    }

    /**
     * One request: counted, waited at most the request timeout.
     *
     * @param doing what this rank was doing, for the message
     * @param bytesSent the key and value bytes the request carries
     */
    <T> T call(String doing, long bytesSent, CompletableFuture<T> future) {
        requests.incrementAndGet();
        sent.addAndGet(bytesSent);
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new StoreUnavailableException(address, doing + " (no answer within " + timeout.toMillis() + " ms)", e);
        } catch (ExecutionException e) {
            throw new StoreUnavailableException(address, doing, e.getCause());
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new RendezvousException("interrupted while " + doing + " on store " + address, e);
        } catch (RuntimeException e) {
            // the client refused at once (closed, a bad argument): not a hang, still the store's failure
            throw new StoreUnavailableException(address, doing, e);
        }
    }

    /** A request that was made without {@link #call} (a watch's creation). */
    void counted(long bytesSent) {
        requests.incrementAndGet();
        sent.addAndGet(bytesSent);
    }

    void received(long bytes) {
        received.addAndGet(bytes);
    }

    void received(List<KeyValue> kvs) {
        long n = 0;
        for (KeyValue kv : kvs) {
            n += kv.getKey().size() + kv.getValue().size();
        }
        received.addAndGet(n);
    }

    StoreTraffic traffic() {
        return new StoreTraffic(requests.get(), sent.get(), received.get());
    }
}
