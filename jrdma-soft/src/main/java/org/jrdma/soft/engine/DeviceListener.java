package org.jrdma.soft.engine;

import org.jrdma.verbs.AsyncEventType;

/** A context of the device, told of the device's own events (port up/down, device fatal). */
@FunctionalInterface
public interface DeviceListener {
    /** {@code type} happened on port {@code portNum} (0 for the device as a whole). */
    void deviceEvent(AsyncEventType type, int portNum);
}
