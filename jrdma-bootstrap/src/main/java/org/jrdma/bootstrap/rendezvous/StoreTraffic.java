package org.jrdma.bootstrap.rendezvous;

/**
 * What one rank asked of its store: how many requests (etcd: unary RPCs and watch creations; a
 * directory: files written, listed or read) and how many bytes of keys and values went each way.
 * Bytes count the keys and values themselves, not the transport's framing (gRPC, HTTP/2, TLS).
 *
 * @param requests requests made
 * @param bytesSent key and value bytes written
 * @param bytesReceived key and value bytes read, watch events included
 */
public record StoreTraffic(long requests, long bytesSent, long bytesReceived) {
    /** Nothing yet. */
    public static final StoreTraffic NONE = new StoreTraffic(0, 0, 0);
}
