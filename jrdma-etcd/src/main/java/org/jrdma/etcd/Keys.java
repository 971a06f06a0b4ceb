package org.jrdma.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.etcd.jetcd.ByteSequence;

/**
 * The key layout of package {@code org.jrdma.bootstrap.rendezvous} for one job on etcd: {@code
 * /jrdma/<job>/epoch} names the current run, everything of run E lives under {@code
 * /jrdma/<job>/<E>/}. The trailing slashes matter: epoch 1's prefix must not match epoch 10's keys.
 */
final class Keys {
    private final String job;
    private final String jobPrefix;

    Keys(String job) {
        this.job = job;
        this.jobPrefix = "/jrdma/" + job + "/";
    }

    String job() {
        return job;
    }

    /** Everything of the job, every epoch included: one watch sees an epoch move and its deletes together. */
    String jobPrefix() {
        return jobPrefix;
    }

    String epochKey() {
        return jobPrefix + "epoch";
    }

    String epochPrefix(long epoch) {
        return jobPrefix + epoch + "/";
    }

    String memberPrefix(long epoch) {
        return epochPrefix(epoch) + "member/";
    }

    String member(long epoch, int rank) {
        return memberPrefix(epoch) + rank;
    }

    String sealed(long epoch) {
        return epochPrefix(epoch) + "sealed";
    }

    /** What is addressed to {@code to}: {@code <E>/info/<to>/<from>}. */
    String infoPrefix(long epoch, int to) {
        return epochPrefix(epoch) + "info/" + to + "/";
    }

    String info(long epoch, int to, int from) {
        return infoPrefix(epoch, to) + from;
    }

    String barrierPrefix(long epoch, String name) {
        return epochPrefix(epoch) + "barrier/" + name + "/";
    }

    String barrier(long epoch, String name, int rank) {
        return barrierPrefix(epoch, name) + rank;
    }

    static ByteSequence bytes(String s) {
        return ByteSequence.from(s, UTF_8);
    }

    static String text(ByteSequence b) {
        return b.toString(UTF_8);
    }

    /**
     * The rank a key ends in, after {@code prefix}.
     *
     * @return the rank, or -1 if the rest is not a rank of a job of {@code size}
     */
    static int rankAfter(String key, String prefix, int size) {
        if (!key.startsWith(prefix)) {
            return -1;
        }
        String rest = key.substring(prefix.length());
        if (rest.isEmpty() || rest.length() > 7 || !rest.chars().allMatch(c -> c >= '0' && c <= '9')
                || (rest.length() > 1 && rest.charAt(0) == '0')) {
            return -1;
        }
        int r = Integer.parseInt(rest);
        return r < size ? r : -1;
    }
}
