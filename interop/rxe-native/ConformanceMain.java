import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the native provider's compiled tests (package org.jrdma.ibv, or the classes named as
 * arguments) with the JUnit Platform launcher, in a lab guest where no Maven runs: prints each
 * failure with its message, the skip reasons with their counts, and as its last line
 * {@code conformance on rxe: N passed, M failed, K skipped}. Exit status 1 when anything failed.
 */
public final class ConformanceMain {
    public static void main(String[] args) {
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String a : args) {
            if (!a.isBlank()) {
                selectors.add(selectClass(a));
            }
        }
        if (selectors.isEmpty()) {
            selectors.add(selectPackage("org.jrdma.ibv"));
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectors).build();
        AtomicInteger passed = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger skipped = new AtomicInteger();
        Map<String, Integer> skipReasons = new TreeMap<>();
        PrintStream out = System.out;
        long start = System.nanoTime();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                if (id.isTest()) {
                    skipped.incrementAndGet();
                    skipReasons.merge(reason, 1, Integer::sum);
                }
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (!id.isTest()) {
                    if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                        failed.incrementAndGet();
                        out.println("FAILED (container) " + id.getUniqueId() + ": " + result.getThrowable().orElse(null));
                    }
                    return;
                }
                switch (result.getStatus()) {
                    case SUCCESSFUL -> passed.incrementAndGet();
                    case ABORTED -> {
                        skipped.incrementAndGet();
                        String reason = result.getThrowable().map(Throwable::getMessage).orElse("aborted");
                        skipReasons.merge(reason == null ? "aborted" : reason.lines().findFirst().orElse(reason), 1,
                                Integer::sum);
                    }
                    case FAILED -> {
                        failed.incrementAndGet();
                        Throwable t = result.getThrowable().orElse(null);
                        out.println("FAILED " + name(id) + ": " + (t == null ? "?" : t.toString().lines()
                                .limit(6).reduce((x, y) -> x + " | " + y).orElse("")));
                    }
                }
            }
        };
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, listener);
        out.println("skips by reason:");
        skipReasons.forEach((reason, n) -> out.println("  " + n + " × " + reason));
        out.println("time: " + (System.nanoTime() - start) / 1_000_000_000 + " s");
        out.println("conformance on rxe: " + passed + " passed, " + failed + " failed, " + skipped + " skipped");
        System.exit(failed.get() == 0 ? 0 : 1);
    }

    private static String name(TestIdentifier id) {
        String u = id.getUniqueId();
        int c = u.indexOf("[class:");
        return (c >= 0 ? u.substring(c) : u).replace("[class:org.jrdma.ibv.", "[").replaceAll("\\]/\\[(method|test-template|test-template-invocation):", " ");
    }
}
