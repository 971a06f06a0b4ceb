package org.jrdma.bench;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads what {@code jrdma perf --out_json} prints — the one place that knows its keys, so a
 * change there is a change here. Tolerant: keys match without regard to case, '_', '[', '/'
 * and other punctuation ({@code bwAvgMiBs}, {@code bw_avg_MiBs}, perftest's own
 * {@code "BW_average"} and {@code "BW average[MB/sec]"} are one key); objects nested in the
 * top one (perftest's {@code "results"}, {@code "test_info"}) are searched too, the shallower
 * key winning; bandwidth in Gb/s is converted. Fails with a message that names what is
 * missing and what was there.
 */
public final class PerfJson {
    private PerfJson() {
    }

    /** A figure's aliases (normalized) and the factor that turns its unit into ours. */
    private record Alias(String key, double toOurUnit) {
    }

    private static final double GBIT_TO_MIB = 1e9 / 8 / (1 << 20);

    private static final Map<String, List<Alias>> ALIASES = Map.ofEntries(
            entry("test", "test", "testname", "testtype"),
            entry("size", "size", "bytes", "sizebytes", "msgsize", "messagesize", "msgsizebytes"),
            entry("iterations", "iterations", "iters", "niterations", "n"),
            Map.entry("bwPeakMiBs", List.of(a("bwpeakmibs"), a("bwpeakmibsec"), a("bwpeakmbsec"), a("bwpeakmbs"), a("bwpeak"),
                    new Alias("bwpeakgbsec", GBIT_TO_MIB), new Alias("bwpeakgbps", GBIT_TO_MIB))),
            Map.entry("bwAvgMiBs", List.of(a("bwavgmibs"), a("bwaveragemibs"), a("bwaveragemibsec"), a("bwavgmibsec"),
                    a("bwaveragembsec"), a("bwavgmbs"), a("bwaverage"), a("bwavg"),
                    new Alias("bwaveragegbsec", GBIT_TO_MIB), new Alias("bwavggbps", GBIT_TO_MIB), new Alias("bwaveragegbps", GBIT_TO_MIB))),
            entry("msgRateMpps", "msgratempps", "msgrate", "mpps"),
            entry("tMinUs", "tminus", "tmin", "tminusec"),
            entry("tMaxUs", "tmaxus", "tmax", "tmaxusec"),
            entry("tTypicalUs", "ttypicalus", "ttypical", "ttypicalusec", "tmedianus", "medianus", "p50us", "tp50us"),
            entry("tAvgUs", "tavgus", "tavg", "tavgusec", "taverageus"),
            entry("tStdevUs", "tstdevus", "tstdev", "tstdevusec"),
            entry("p99Us", "p99us", "p99usec", "t99us", "percentile99", "99percentileusec", "tp99us"),
            entry("p999Us", "p999us", "p999usec", "t999us", "percentile999", "999percentileusec", "tp999us"),
            entry("setupCpuSeconds", "setupcpuseconds"),
            entry("allocBytesPerOp", "allocbytesperop", "allocperop", "allocatedbytesperop", "bytesallocatedperop", "allocbop"));

    private static Map.Entry<String, List<Alias>> entry(String name, String... keys) {
        List<Alias> aliases = new ArrayList<>();
        for (String k : keys) {
            aliases.add(a(k));
        }
        return Map.entry(name, List.copyOf(aliases));
    }

    private static Alias a(String key) {
        return new Alias(key, 1.0);
    }

    /** Parses one JSON object of jrdma perf. */
    public static PerfResult parse(String json) {
        return fromObject(Json.parseObject(json));
    }

    /**
     * Finds jrdma perf's JSON object in a process's whole output (perftest's text around it,
     * the object on one line or several): the last object with a bandwidth or latency figure,
     * else the last with any key jrdma perf writes (a write_bw server reports only its
     * allocation).
     */
    public static PerfResult findIn(String output) {
        PerfResult withFigure = null;
        PerfResult known = null;
        for (int i = output.indexOf('{'); i >= 0; i = output.indexOf('{', i + 1)) {
            int lineStart = output.lastIndexOf('\n', i) + 1;
            if (!output.substring(lineStart, i).isBlank()) {
                continue; // objects start a line; a '{' inside text is not one
            }
            try {
                Json.Parsed p = Json.parseObjectAt(output, i);
                PerfResult r = fromObject(p.object());
                if (r.hasFigure()) {
                    withFigure = r;
                } else if (!r.figures().isEmpty()) {
                    known = r;
                }
                i = p.end() - 1;
            } catch (Json.JsonException notJson) {
                // some other brace
            }
        }
        if (withFigure == null && known == null) {
            throw new Json.JsonException("no jrdma perf JSON object in the output");
        }
        return withFigure != null ? withFigure : known;
    }

    static PerfResult fromObject(Map<String, Object> object) {
        Map<String, Object> flat = flatten(object);
        // a unit given beside the figures ("bwUnit":"Gb/sec", as with perftest's --report_gbits)
        boolean gbits = flat.get("bwunit") instanceof String unit && unit.toLowerCase(Locale.ROOT).startsWith("gb");
        Map<String, Double> figures = new LinkedHashMap<>();
        String test = null;
        for (var e : ALIASES.entrySet()) {
            for (Alias alias : e.getValue()) {
                Object v = flat.get(alias.key());
                if (v == null) {
                    continue;
                }
                if (e.getKey().equals("test")) {
                    if (v instanceof String s) {
                        test = s;
                    }
                } else if (v instanceof Double d) {
                    boolean bw = e.getKey().startsWith("bw");
                    figures.put(e.getKey(), d * alias.toOurUnit() * (bw && gbits && alias.toOurUnit() == 1.0 ? GBIT_TO_MIB : 1.0));
                } else {
                    throw new Json.JsonException("jrdma perf JSON: \"" + alias.key() + "\" should be a number, is " + v);
                }
                break;
            }
        }
        return new PerfResult(test, figures, flat.keySet());
    }

    /**
     * Every key at any depth, normalized; a shallower key hides a deeper one of the same name,
     * and in an array of objects (jrdma perf's {@code "results":[{…}]}, one per size) the first.
     */
    private static Map<String, Object> flatten(Map<String, Object> object) {
        Map<String, Object> flat = new LinkedHashMap<>();
        Deque<Map<?, ?>> level = new ArrayDeque<>(List.of(object));
        while (!level.isEmpty()) {
            Deque<Map<?, ?>> next = new ArrayDeque<>();
            for (Map<?, ?> m : level) {
                for (var e : m.entrySet()) {
                    if (e.getValue() instanceof Map<?, ?> inner) {
                        next.add(inner);
                    } else if (e.getValue() instanceof List<?> list) {
                        list.stream().filter(x -> x instanceof Map<?, ?>).forEach(x -> next.add((Map<?, ?>) x));
                    } else {
                        flat.putIfAbsent(normalize((String) e.getKey()), e.getValue());
                    }
                }
            }
            level = next;
        }
        return flat;
    }

    static String normalize(String key) {
        StringBuilder sb = new StringBuilder(key.length());
        for (char c : key.toLowerCase(Locale.ROOT).toCharArray()) {
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
