package dev.shepherd.core;

/**
 * One configured slot: its stable id and advertised capacity ({@code maxConcurrency}; null means
 * unknown, which selection treats as full until the worker announces one, C1 in docs/rules.md).
 */
public record SlotSpec(String id, Integer maxConcurrency) {
  public SlotSpec {
    if (id == null || id.isEmpty()) {
      throw new ConfigException("worker id", id, "must be a non-empty string");
    }
    if (maxConcurrency != null && maxConcurrency < 1) {
      throw new ConfigException(
          "maxConcurrency", maxConcurrency, "must be at least 1 (a worker that runs nothing"
              + " can never be selected)");
    }
  }
}
