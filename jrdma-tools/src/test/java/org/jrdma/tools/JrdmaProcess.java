package org.jrdma.tools;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code jrdma} command in a child JVM with this test's class path, as a user would run it in
 * another terminal: stdout and stderr merged, the working directory the build's. {@code env}
 * sets variables; a null value removes one (JRDMA_SOFT_DEVICES absent = "no device flags").
 */
public final class JrdmaProcess {
    private JrdmaProcess() {
    }

    public static Process start(List<String> jvmOptions, Map<String, String> env, List<String> args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(jvmOptions);
        if (Main.class.getModule().isNamed()) {
            // as ./jrdma runs it: the tools module and the modules it requires, from this JVM's module path
            cmd.addAll(List.of("--enable-native-access=org.jrdma.verbs,org.jrdma.soft,org.jrdma.ibv,org.jrdma.shm",
                    "--module-path", System.getProperty("jdk.module.path"), "--module", "org.jrdma.tools/" + Main.class.getName()));
        } else {
            cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        }
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        pb.directory(new File(System.getProperty("user.dir")));
        return pb.start();
    }
}
