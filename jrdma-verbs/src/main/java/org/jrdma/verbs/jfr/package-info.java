/**
 * JDK Flight Recorder events of jrdma, named {@code org.jrdma.*} and in category "jrdma":
 * QP state changes, error completions, connections made and closed (bootstrap and CM), and
 * periodic summaries of retries and drops (counters read once a period, never one event per
 * packet). The providers, the bootstrap and the CM commit them; an application only records
 * them ({@code -XX:StartFlightRecording} or {@code jdk.jfr.Recording}) and reads them with
 * {@code jfr print --events 'org.jrdma.*'} or {@code jdk.jfr.consumer.RecordingFile}. Every
 * emitter checks {@code isEnabled()} (or {@code shouldCommit()}) before filling one, so an
 * application that records nothing pays a branch.
 */
package org.jrdma.verbs.jfr;
