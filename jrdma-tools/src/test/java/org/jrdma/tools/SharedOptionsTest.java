package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jrdma.tools.options.DeviceOption;
import org.jrdma.tools.options.PskOption;
import org.jrdma.tools.options.TimeoutOption;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options the tools share (org.jrdma.tools.options): each tool keeps its own default, and a
 * value given parses to the same thing in every tool that has the option — checked on the
 * model picocli builds from Main, without running anything.
 */
class SharedOptionsTest {
    /** perf needs its TEST to parse; the others nothing. */
    private static final Map<String, List<String>> REQUIRED = Map.of("perf", List.of("write_bw"));

    private static CommandLine sub(CommandLine root, String name, String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(name));
        all.addAll(REQUIRED.getOrDefault(name, List.of()));
        all.addAll(List.of(args));
        root.parseArgs(all.toArray(String[]::new));
        return root.getSubcommands().get(name);
    }

    private static <T> T mixin(CommandLine cmd, Class<T> type) {
        return cmd.getCommandSpec().mixins().values().stream().map(CommandSpec::userObject).filter(type::isInstance)
                .map(type::cast).findFirst()
                .or(() -> cmd.getCommandSpec().mixins().values().stream() // RcFlags' -d is a mixin of a mixin
                        .flatMap(m -> m.mixins().values().stream()).map(CommandSpec::userObject).filter(type::isInstance)
                        .map(type::cast).findFirst())
                .orElseThrow(() -> new AssertionError(cmd.getCommandName() + " has no " + type.getSimpleName()));
    }

    @Test
    void eachToolKeepsItsOwnTimeoutDefaultAndShowsIt() {
        Map<String, Long> defaults = Map.of("demo", 10_000L, "pingpong", 30_000L, "perf", 60_000L, "rping", 10_000L);
        CommandLine root = new CommandLine(new Main());
        defaults.forEach((tool, ms) -> {
            CommandLine cmd = sub(root, tool);
            assertThat(mixin(cmd, TimeoutOption.class).millis()).as(tool).isEqualTo(ms);
            OptionSpec o = cmd.getCommandSpec().findOption("--timeout-ms");
            assertThat(o.paramLabel()).as(tool).isEqualTo("<timeoutMs>");
            assertThat(String.join(" ", o.description())).as(tool).contains("(default: " + ms + ")");
        });
    }

    @Test
    void aTimeoutGivenParsesAlikeInEveryToolAndTheNextParseHasTheDefaultAgain() {
        CommandLine root = new CommandLine(new Main());
        for (String tool : List.of("demo", "pingpong", "perf", "rping")) {
            assertThat(mixin(sub(root, tool, "--timeout-ms", "1234"), TimeoutOption.class).duration()).as(tool)
                    .hasMillis(1234);
            assertThat(mixin(sub(root, tool, "--timeout-ms=77"), TimeoutOption.class).millis()).as(tool).isEqualTo(77);
        }
        assertThat(mixin(sub(root, "pingpong"), TimeoutOption.class).millis()).isEqualTo(30_000); // reset, not 77
    }

    @Test
    void theDeviceIsTheSameFlagInDemoPingpongAndPerf() {
        CommandLine root = new CommandLine(new Main());
        for (String tool : List.of("demo", "pingpong", "perf")) {
            assertThat(mixin(sub(root, tool), DeviceOption.class).name()).as(tool).isNull();
            assertThat(mixin(sub(root, tool, "-d", "soft_x"), DeviceOption.class).name()).as(tool).isEqualTo("soft_x");
            assertThat(mixin(sub(root, tool, "--ib-dev", "soft_y"), DeviceOption.class).name()).as(tool).isEqualTo("soft_y");
            assertThat(root.getSubcommands().get(tool).getCommandSpec().findOption("-d").paramLabel()).isEqualTo("NAME");
        }
    }

    @Test
    void thePskFileIsTheSameFlagInDemoAndPingpong() {
        CommandLine root = new CommandLine(new Main());
        for (String tool : List.of("demo", "pingpong")) {
            assertThat(mixin(sub(root, tool), PskOption.class).given()).as(tool).isFalse();
            assertThat(mixin(sub(root, tool, "--psk-file", "k.psk"), PskOption.class).given()).as(tool).isTrue();
            OptionSpec o = root.getSubcommands().get(tool).getCommandSpec().findOption("--psk-file");
            assertThat(o.paramLabel()).isEqualTo("FILE");
            assertThat(o.type()).isEqualTo(Path.class);
        }
    }

    @Test
    void theOptionsLeftToEachToolKeepTheirDefaults() {
        CommandLine root = new CommandLine(new Main());
        Map<String, String> ports = Map.of("demo", "0", "pingpong", "18515", "perf", "18515", "rping", "7174");
        ports.forEach((tool, port) -> {
            CommandLine cmd = sub(root, tool);
            assertThat(cmd.getCommandSpec().findOption("-p").defaultValue()).as(tool).isEqualTo(port);
        });
        assertThat(sub(root, "perf").getCommandSpec().findOption("-x").defaultValue()).isEqualTo("0");
        assertThat(sub(root, "pingpong").getCommandSpec().findOption("-g").defaultValue()).isEqualTo("0");
    }

    @Test
    void everyToolInheritsProvider() {
        CommandLine root = new CommandLine(new Main());
        for (String tool : List.of("demo", "pingpong", "perf", "rping", "chaos", "devices", "devinfo")) {
            OptionSpec o = root.getSubcommands().get(tool).getCommandSpec().findOption("--provider");
            assertThat(o).as(tool).isNotNull();
            assertThat(o.inherited()).as(tool).isTrue();
        }
    }
}
