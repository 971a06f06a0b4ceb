package org.jrdma.shm.sys;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcTest {
    @Test
    void thisProcessIsAliveWithItsStartTime() {
        assertThat(Proc.pid()).isEqualTo(ProcessHandle.current().pid());
        long start = Proc.startMillis();
        assertThat(start).as("Linux reports start times").isPositive();
        assertThat(Proc.alive(Proc.pid(), start)).isTrue();
        assertThat(Proc.alive(Proc.pid(), -1)).as("start unknown: alive only").isTrue();
        assertThat(Proc.alive(Proc.pid(), start - 1)).as("another process with a reused pid").isFalse();
    }

    @Test
    void noSuchProcessIsNotAlive() {
        assertThat(Proc.alive(Integer.MAX_VALUE, -1)).isFalse();
        assertThat(Proc.alive(0, -1)).isFalse();
        assertThat(Proc.alive(-3, -1)).isFalse();
    }

    /** A pidfd polls not-exited while its process runs and exited once it ended (reaped or not). */
    @Test
    void aPidfdSaysWhenItsProcessExits() throws Exception {
        int self = Proc.pidfdOpen(Proc.pid());
        assertThat(self).as("pidfd_open of this process").isGreaterThanOrEqualTo(0);
        try {
            assertThat(Proc.exited(self)).isFalse();
        } finally {
            Proc.close(self);
        }
        Process child = new ProcessBuilder("sleep", "60").start();
        int fd = Proc.pidfdOpen(child.pid());
        try {
            assertThat(fd).isGreaterThanOrEqualTo(0);
            assertThat(Proc.exited(fd)).as("the child runs").isFalse();
            child.destroyForcibly();
            org.jrdma.testkit.Await.until(() -> Proc.exited(fd), java.time.Duration.ofSeconds(30), "the child's exit on its pidfd");
        } finally {
            Proc.close(fd);
            child.destroyForcibly();
        }
        assertThat(Proc.pidfdOpen(Integer.MAX_VALUE)).as("no such process").isEqualTo(-3);
        assertThat(Proc.exited(-1)).isTrue();
    }
}
