package org.jrdma.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void readsAnObjectWhateverTheSpacingAndKeyOrder() {
        Map<String, Object> a = Json.parseObject("{\"size\":8,\"test\":\"send_lat\",\"ok\":true,\"x\":null}");
        Map<String, Object> b = Json.parseObject("\n {  \"x\" : null ,\n\t\"ok\":true , \"test\" :\"send_lat\",\"size\"  :  8.0 }  \n");
        assertThat(a).isEqualTo(b);
        assertThat(a.get("size")).isEqualTo(8.0);
    }

    @Test
    void readsNestedObjectsArraysEscapesAndNumbers() {
        Map<String, Object> o = Json.parseObject("{\"r\":{\"a\":[1,-2.5e3,\"s\"]},\"s\":\"q\\\"\\\\\\u00b5s\\n\",\"e\":[],\"o\":{}}");
        assertThat(((Map<?, ?>) o.get("r")).get("a")).isEqualTo(List.of(1.0, -2500.0, "s"));
        assertThat(o.get("s")).isEqualTo("q\"\\µs\n");
        assertThat(o.get("e")).isEqualTo(List.of());
        assertThat(o.get("o")).isEqualTo(Map.of());
    }

    @Test
    void readsTheNonFiniteNumbersPrintfWrites() {
        Map<String, Object> o = Json.parseObject("{\"a\":NaN,\"b\":Infinity,\"c\":-Infinity}");
        assertThat((Double) o.get("a")).isNaN();
        assertThat(o.get("b")).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(o.get("c")).isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @Test
    void garbageFailsNamingWhatAndWhere() {
        assertThatThrownBy(() -> Json.parseObject("")).isInstanceOf(Json.JsonException.class).hasMessageContaining("expected '{' at offset 0");
        assertThatThrownBy(() -> Json.parseObject("Segmentation fault")).hasMessageContaining("expected '{' at offset 0 near «Segmentation fault»");
        assertThatThrownBy(() -> Json.parseObject("{\"a\" 1}")).hasMessageContaining("expected ':' at offset 5");
        assertThatThrownBy(() -> Json.parseObject("{\"a\":1,}")).hasMessageContaining("expected a \"key\" at offset 7");
        assertThatThrownBy(() -> Json.parseObject("{\"a\":1")).hasMessageContaining("unexpected end");
        assertThatThrownBy(() -> Json.parseObject("{\"a\":1} x")).hasMessageContaining("text after the object at offset 8");
        assertThatThrownBy(() -> Json.parseObject("{\"a\":1.2.3}")).hasMessageContaining("bad number '1.2.3'");
        assertThatThrownBy(() -> Json.parseObject("{\"a\":tru}")).hasMessageContaining("expected true");
        assertThatThrownBy(() -> Json.parseObject("{\"a\":\"x")).hasMessageContaining("unexpected end, expected closing '\"'");
    }
}
