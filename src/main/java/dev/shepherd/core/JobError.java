package dev.shepherd.core;

import java.util.Objects;

/** The error a worker returned for a job that ran and failed (the worker stays healthy). */
public record JobError(int code, String message) {
  public JobError {
    Objects.requireNonNull(message, "message");
  }
}
