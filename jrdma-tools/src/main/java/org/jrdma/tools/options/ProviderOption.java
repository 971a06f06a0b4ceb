package org.jrdma.tools.options;

import org.jrdma.verbs.ProviderChoice;
import org.jrdma.verbs.VerbsException;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --provider}, on every tool (mixed into the {@code jrdma} command and inherited:
 * {@code jrdma devices --provider soft}): the same choice as JRDMA_PROVIDER, made for this run
 * by setting {@code jrdma.provider}, which wins over the environment — so everything that lists
 * devices in this process (the connection manager too) sees it. {@code Main.run} puts the
 * property back afterwards.
 */
public final class ProviderOption {
    @Option(names = "--provider", paramLabel = "auto|soft|native|shm", scope = CommandLine.ScopeType.INHERIT,
            converter = ProviderMode.class,
            completionCandidates = ProviderOption.Modes.class,
            description = "Whose devices to use: auto (native's when there are any, else soft's; shm's for a peer on this"
                    + " host when there is no NIC and no -d), soft, native or shm (processes on one host);"
                    + " overrides JRDMA_PROVIDER for this run (default: JRDMA_PROVIDER, else auto).")
    void provider(ProviderChoice.Mode mode) {
        System.setProperty(ProviderChoice.PROPERTY, mode.text());
    }

    /** The settings, for shell completion: every {@link ProviderChoice.Mode}'s text. */
    static final class Modes implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(ProviderChoice.Mode.values()).map(ProviderChoice.Mode::text).iterator();
        }
    }

    /** {@code --provider}'s value; a wrong one is a usage error of the tool it was given to. */
    static final class ProviderMode implements CommandLine.ITypeConverter<ProviderChoice.Mode> {
        @Override
        public ProviderChoice.Mode convert(String value) {
            try {
                return ProviderChoice.Mode.parse(value, "--provider");
            } catch (VerbsException e) {
                throw new CommandLine.TypeConversionException("unknown provider '" + value + "'; use auto, soft, native or shm");
            }
        }
    }
}
