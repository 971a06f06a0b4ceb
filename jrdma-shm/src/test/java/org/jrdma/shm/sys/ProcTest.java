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
}
