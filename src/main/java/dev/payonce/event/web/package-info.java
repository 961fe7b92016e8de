/**
 * The HTTP API of merchant events (docs/events.md, docs/api.md): a client's webhook
 * endpoints ({@code /webhook-endpoints}) and its event feed ({@code /events}), both
 * authenticated by the client's API key like {@code /payments}; the admin view of
 * endpoints disabled for failing ({@code /admin/webhook-endpoints}).
 */
@NullMarked
package dev.payonce.event.web;

import org.jspecify.annotations.NullMarked;
