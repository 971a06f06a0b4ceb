package org.jrdma.bootstrap;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every event, in order, for assertions on phases. */
public final class RecordingListener implements ExchangeListener {
    private final List<ExchangeEvent> events = new CopyOnWriteArrayList<>();

    @Override
    public void onEvent(ExchangeEvent event) {
        events.add(event);
    }

    public List<ExchangeEvent> events() {
        return List.copyOf(events);
    }

    public List<ExchangeEvent.Phase> phases() {
        return events.stream().map(ExchangeEvent::phase).toList();
    }

    public ExchangeEvent last() {
        return events.getLast();
    }
}
