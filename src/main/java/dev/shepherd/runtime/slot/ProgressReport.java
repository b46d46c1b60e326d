package dev.shepherd.runtime.slot;

import io.vertx.core.json.JsonObject;

/**
 * One progress report of a running job (T2 in docs/rules.md): a private copy of what the handler
 * passed, and what it costs as JSON (at most {@code JobProgress.MAX_BYTES}).
 */
public record ProgressReport(JsonObject progress, long bytes) {}
