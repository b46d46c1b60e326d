package dev.shepherd.core;

import java.util.Objects;

/**
 * The error a worker returned for a job that ran and failed (the worker stays healthy, J1 in
 * docs/rules.md): {@code code} (500 unless the handler chose one), {@code message}, and {@code
 * type}, the class name of the exception behind it (null when the failure did not come from one,
 * such as a failure reported over the bus without a type).
 */
public record JobError(int code, String message, String type) {
  public JobError {
    Objects.requireNonNull(message, "message");
  }

  /** An error without an exception type. */
  public JobError(int code, String message) {
    this(code, message, null);
  }
}
