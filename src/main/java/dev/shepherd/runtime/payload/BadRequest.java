package dev.shepherd.runtime.payload;

/** Malformed input: answered 400 with this message, which names the field. Changes nothing. */
public final class BadRequest extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BadRequest(String message) {
    super(message, null, false, false);
  }
}
