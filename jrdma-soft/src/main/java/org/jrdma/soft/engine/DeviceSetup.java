package org.jrdma.soft.engine;

import java.nio.file.Path;
import java.util.function.Function;

/**
 * What a device's engine is started with: the parts of the device's spec and options
 * (SoftDeviceSpec, SoftOptions, in the root package) that the engine uses, so that the engine
 * does not depend on the public configuration types.
 *
 * @param name the device name (thread names, logs, the counters file)
 * @param guid the node GUID, derived from the address by the device
 * @param ethernetMtu the interface MTU; the port's active IB MTU follows from it
 * @param clock the engine's time source
 * @param statsDir where the shared counters file goes, or null to keep the counters private
 * @param sourceCheck how packets' sources are checked, or null for {@link SourceCheck#STRICT}
 * @param threading who runs the engine
 * @param idle makes the engine thread's idle strategy over what parks it
 */
public record DeviceSetup(String name, long guid, int ethernetMtu, NanoClock clock, Path statsDir,
        SourceCheck sourceCheck, ThreadingMode threading, Function<IdleStrategy.Parker, IdleStrategy> idle) {
}
