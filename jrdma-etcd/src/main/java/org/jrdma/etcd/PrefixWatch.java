package org.jrdma.etcd;

import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.util.concurrent.BlockingQueue;

/**
 * A watch on the job's whole prefix from a revision on: every change after the initial read
 * arrives, in revision order, on the rank's queue, so that waiting is by events and nothing is
 * missed between the read and the watch. One watch covers the epoch key too, so an epoch move and
 * the deletes it makes arrive in the same response (and are not mistaken for ranks that died).
 */
final class PrefixWatch implements AutoCloseable {
    /** Put on the queue when the watch ends without an error (the client was closed). */
    static final Object ENDED = new Object();

    private final Watch.Watcher watcher;

    PrefixWatch(Watch watch, Requests requests, String prefix, long fromRevision, BlockingQueue<Object> queue) {
        requests.counted(prefix.length());
        WatchOption option = WatchOption.builder().isPrefix(true).withRevision(fromRevision).build();
        this.watcher = watch.watch(Keys.bytes(prefix), option, Watch.listener(r -> {
            long n = 0;
            for (WatchEvent e : r.getEvents()) {
                n += e.getKeyValue().getKey().size() + e.getKeyValue().getValue().size();
            }
            requests.received(n);
            queue.add(r);
        }, queue::add, () -> queue.add(ENDED)));
    }

    static boolean isResponse(Object item) {
        return item instanceof WatchResponse;
    }

    @Override
    public void close() {
        watcher.close();
    }
}
