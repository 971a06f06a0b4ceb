package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/** The exit-code policy (ExitCodes), one case per outcome, through Main's command line. */
class ExitCodesTest {
    @RegisterExtension
    static final OwnDevices DEVICES = new OwnDevices("exit");

    @Test
    void theCodesAreZeroOneTwoAsRdmaCoreAndPicocliHaveThem() {
        assertThat(new int[] {ExitCodes.OK, ExitCodes.FAILURE, ExitCodes.USAGE}).containsExactly(0, 1, 2);
        assertThat(ExitCodes.USAGE).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(ExitCodes.of(true)).isEqualTo(ExitCodes.OK);
        assertThat(ExitCodes.of(false)).isEqualTo(ExitCodes.FAILURE);
    }

    @Test
    void successHelpAndVersionExitZero() {
        ToolRun ok = ToolRun.of("devices", "--provider", "soft");
        assertThat(ok.code()).as(ok.toString()).isEqualTo(ExitCodes.OK);
        assertThat(ToolRun.of("--help").code()).isEqualTo(ExitCodes.OK);
        assertThat(ToolRun.of("pingpong", "--help").code()).isEqualTo(ExitCodes.OK);
        assertThat(ToolRun.of("rping", "-h").code()).isEqualTo(ExitCodes.OK);
        assertThat(ToolRun.of("--version").code()).isEqualTo(ExitCodes.OK);
    }

    @Test
    void aRunThatFailsExitsOneWithOneLineNamingTheCause() {
        ToolRun r = ToolRun.of("devinfo", "-d", "no_such_device");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).startsWith("jrdma devinfo: error: ").contains("no_such_device");
        assertThat(r.err().lines()).hasSize(1);
    }

    @Test
    void aPeerThatIsNotThereIsAFailureWhenTheDeadlinePasses() throws Exception {
        String port = Integer.toString(FreeLoopback.tcpPort()); // nobody listens there
        ToolRun r = ToolRun.of("pingpong", "-d", DEVICES.name(), "-p", port, "--timeout-ms", "300", "127.0.0.1");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).contains("jrdma pingpong: error: ");
    }

    @Test
    void aWrongCommandLineExitsTwoAndSaysWhereTheHelpIs() {
        ToolRun parse = ToolRun.of("devices", "--no-such-flag");
        assertThat(parse.code()).as(parse.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(parse.err()).contains("jrdma devices: Unknown option: '--no-such-flag'").contains("Try 'jrdma devices --help'.");

        ToolRun check = ToolRun.of("rping", "-s", "-c"); // a command's own check of its flags
        assertThat(check.code()).as(check.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(check.err()).contains("jrdma rping: give -s (server) or -c (client)").contains("Try 'jrdma rping --help'.");

        ToolRun value = ToolRun.of("demo", "--timeout-ms", "soon");
        assertThat(value.code()).as(value.toString()).isEqualTo(ExitCodes.USAGE);
    }
}
