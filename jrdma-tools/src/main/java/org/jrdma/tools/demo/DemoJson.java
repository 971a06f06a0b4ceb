package org.jrdma.tools.demo;

import org.jrdma.tools.rc.EndpointConfig;
import org.jrdma.tools.rc.RcEndpoint;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.tools.json.Json;

/** The demo's result as one JSON object (phases, both sides' info, figures, counters). */
final class DemoJson {
    private DemoJson() {
    }

    static String of(DemoResult r) {
        Json j = new Json().begin();
        j.field("device", r.device()).field("bootstrap", r.config().bootstrap()).field("size", r.config().size())
                .field("iters", r.config().iters()).field("mtu", r.config().mtu().bytes()).field("events", r.config().events());
        j.beginArray("phases");
        for (Phase p : r.phases()) {
            j.begin().field("number", p.number()).field("name", p.name()).field("ms", p.nanos() / 1e6).end();
        }
        j.endArray();
        info(j.key("server").begin(), r.serverLocal(), r.serverRemote()).end();
        info(j.key("client").begin(), r.clientLocal(), r.clientRemote()).end();
        DataResult d = r.data();
        j.key("data").begin().field("bytes", d.bytes()).field("seconds", d.seconds()).field("mibPerSec", d.mibPerSecond())
                .field("mbitPerSec", d.mbitPerSecond()).field("usecPerIter", d.microsPerIter())
                .field("latencyP50Us", d.p50Micros()).field("latencyP99Us", d.p99Micros()).field("latencyAvgUs", d.avgMicros())
                .field("verifiedMessages", d.verifiedMessages()).end();
        j.field("channelClosedBeforeFirstRdmaPacket", r.channelClosedBeforeFirstPacket());
        j.map("counters", r.counters());
        return j.end().toString();
    }

    private static Json info(Json j, ConnInfo local, ConnInfo remote) {
        return j.key("local").begin().field("lid", local.lid()).field("qpn", local.qpn()).field("psn", local.psn())
                .field("gid", local.gid().toString()).end()
                .key("remote").begin().field("lid", remote.lid()).field("qpn", remote.qpn()).field("psn", remote.psn())
                .field("gid", remote.gid().toString()).end();
    }
}
