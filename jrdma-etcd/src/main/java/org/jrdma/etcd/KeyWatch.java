package org.jrdma.etcd;

import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import java.util.concurrent.BlockingQueue;

/**
 * A watch on one key or prefix from a revision on: every change from there arrives, in revision
 * order, on the rank's queue, so that waiting is by events and nothing between an initial read
 * and the watch is missed. A waiting rank watches only what it needs (its own info prefix or one
 * barrier, the member keys, the epoch key), so it receives O(N) events, not every rank's puts.
 */
final class KeyWatch implements AutoCloseable {
    /** Put on the queue when a watch ends without an error (the client was closed). */
    static final Object ENDED = new Object();

    private final Watch.Watcher watcher;

    KeyWatch(Watch watch, Requests requests, String key, boolean prefix, long fromRevision, BlockingQueue<Object> queue) {
        requests.counted(key.length());
        WatchOption option = WatchOption.builder().isPrefix(prefix).withRevision(fromRevision).build();
        this.watcher = watch.watch(Keys.bytes(key), option, Watch.listener(r -> {
            long n = 0;
            for (WatchEvent e : r.getEvents()) {
                n += e.getKeyValue().getKey().size() + e.getKeyValue().getValue().size();
            }
            requests.received(n);
            queue.add(r);
        }, queue::add, () -> queue.add(ENDED)));
    }

    @Override
    public void close() {
        watcher.close();
    }
}
