/**
 * Conformance suites every verbs provider runs, in the manner of netty's testsuite and
 * rdma-core's {@code tests/base.py}: each suite is an abstract JUnit class that a provider
 * subclasses, supplying a {@link org.jrdma.testkit.ProviderFixture}:
 *
 * <pre>{@code
 * class SoftQpStateMachineTest extends QpStateMachineSuite {
 *     @Override
 *     protected ProviderFixture fixture() {
 *         return SoftFixture.INSTANCE;
 *     }
 * }
 * }</pre>
 *
 * <p>A feature the provider lacks ({@link org.jrdma.testkit.Feature}) skips the tests that need it;
 * nothing is faked. Every wait polls with the fixture's {@code progress()} hook and fails with a
 * message naming what it awaited; nothing sleeps.
 */
package org.jrdma.testkit;
