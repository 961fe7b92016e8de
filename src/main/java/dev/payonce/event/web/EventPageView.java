package dev.payonce.event.web;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * One page of the feed, newest first.
 *
 * @param data the events
 * @param hasMore whether older events follow: pass the last one's id as
 * {@code starting_after}
 */
@Schema(name = "EventPage", requiredProperties = { "data", "hasMore" })
record EventPageView(List<EventView> data, boolean hasMore) {
}
