package org.jrdma.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The exchanges with no server socket: a shared directory, and lines a person pastes. */
@Timeout(120)
class FileAndStaticExchangeTest {
    @Test
    void sharedDirectoryConnectsBothSidesAndLeavesNoFileBehind(@TempDir Path dir) throws Exception {
        ExampleDevice.address();
        String session = "test-" + ProcessHandle.current().pid();
        CompletableFuture<String> server = async(() -> SharedDirectory.run(true, dir, session, null));
        String sent = SharedDirectory.run(false, dir, session, "through the directory");
        assertThat(server.get(Roles.DEADLINE_SECONDS, TimeUnit.SECONDS)).isEqualTo("through the directory");
        assertThat(sent).isEqualTo("through the directory");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).as("each side deleted the file it read").isEmpty();
        }
    }

    @Test
    void staticConfigConnectsWithTheLinesEachSidePrinted() throws Exception {
        ExampleDevice.address();
        Side server = new Side();
        Side client = new Side();
        CompletableFuture<String> serverRun = async(() -> StaticConfig.run(true, server.stdin, server.stdout, null));
        CompletableFuture<String> clientRun = async(() -> StaticConfig.run(false, client.stdin, client.stdout, "pasted"));

        // as the example says: the client's lines into the server, then, once the server is
        // connected, the server's lines into the client
        List<String> clientLines = client.block();
        List<String> serverLines = server.block();
        assertThat(clientLines).hasSize(4).allMatch(l -> l.matches("(lid|qpn|psn|gid)=.+"));
        server.paste(clientLines);
        assertThat(server.output.readLine()).startsWith("StaticConfig: connected");
        client.paste(serverLines);

        assertThat(serverRun.get(Roles.DEADLINE_SECONDS, TimeUnit.SECONDS)).isEqualTo("pasted");
        assertThat(clientRun.get(Roles.DEADLINE_SECONDS, TimeUnit.SECONDS)).isEqualTo("pasted");
    }

    /** One side's terminal: what it prints, read here; what it reads, written here. */
    private static final class Side {
        final BufferedReader stdin;
        final PrintStream stdout;
        final BufferedReader output;
        final PrintWriter keyboard;

        Side() throws IOException {
            PipedOutputStream typed = new PipedOutputStream();
            stdin = new BufferedReader(new InputStreamReader(new PipedInputStream(typed), StandardCharsets.UTF_8));
            keyboard = new PrintWriter(typed, true, StandardCharsets.UTF_8);
            PipedOutputStream printed = new PipedOutputStream();
            output = new BufferedReader(new InputStreamReader(new PipedInputStream(printed), StandardCharsets.UTF_8));
            stdout = new PrintStream(printed, true, StandardCharsets.UTF_8);
        }

        /** The lines it printed for the other side: after the comment, up to the empty line. */
        List<String> block() throws IOException {
            assertThat(output.readLine()).startsWith("# paste these lines");
            List<String> lines = new ArrayList<>();
            for (String l = output.readLine(); l != null && !l.isEmpty(); l = output.readLine()) {
                lines.add(l);
            }
            return lines;
        }

        void paste(List<String> lines) {
            lines.forEach(keyboard::println);
            keyboard.println();
        }
    }

    private static <T> CompletableFuture<T> async(Supplier<T> body) {
        return CompletableFuture.supplyAsync(body, r -> Thread.ofPlatform().daemon(true).start(r));
    }
}
