package org.jrdma.tools.mesh;

import static org.assertj.core.api.Assertions.assertThat;

import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.ToolRun;
import org.junit.jupiter.api.Test;

/** {@code jrdma mesh}'s command line: its checks, and the stores it cannot reach. */
class MeshCommandTest {
    @Test
    void aRankOutsideTheSizeIsAUsageError() {
        ToolRun r = ToolRun.of("mesh", "--store", "file:///tmp/none", "--job", "j", "--rank", "4", "--size", "4");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--rank 4 is out of range 0-3 for --size 4");
    }

    @Test
    void aBadJobIdIsAUsageError() {
        ToolRun r = ToolRun.of("mesh", "--store", "file:///tmp/none", "--job", "a/b", "--rank", "0", "--size", "2");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("a/b");
    }

    @Test
    void theStoreIsRequired() {
        ToolRun r = ToolRun.of("mesh", "--job", "j", "--rank", "0", "--size", "2");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--store");
    }

    @Test
    void aUserNeedsAPassword() {
        ToolRun r = ToolRun.of("mesh", "--store", "etcd://127.0.0.1:1", "--job", "j", "--rank", "0", "--size", "2",
                "--user", "root", "--password-file", "/nonexistent/pw");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("cannot read --password-file /nonexistent/pw");
    }

    /** The tools do not carry jetcd: without jrdma-etcd on the class path, etcd:// says what to add. */
    @Test
    void etcdWithoutTheModuleSaysWhatToPutOnTheClassPath() {
        ToolRun r = ToolRun.of("mesh", "--store", "etcd://127.0.0.1:2379", "--job", "j", "--rank", "0", "--size", "2");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).contains("jrdma-etcd");
    }

    @Test
    void theSamePairPatternDiffersByEpochAndDirection() {
        byte[] a = MeshRun.pattern(1, 0, 1, 64);
        assertThat(a).isEqualTo(MeshRun.pattern(1, 0, 1, 64));
        assertThat(a).isNotEqualTo(MeshRun.pattern(2, 0, 1, 64)).isNotEqualTo(MeshRun.pattern(1, 1, 0, 64));
    }
}
