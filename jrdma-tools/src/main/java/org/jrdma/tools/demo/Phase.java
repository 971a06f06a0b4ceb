package org.jrdma.tools.demo;

/** One printed phase of the demo and how long it took. */
public record Phase(int number, String name, long nanos, String detail) {
}
