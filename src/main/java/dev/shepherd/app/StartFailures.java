package dev.shepherd.app;

/** The one line the launcher prints for a failed start: the failure's own message. */
final class StartFailures {
  private StartFailures() {}

  static String describe(Throwable cause) {
    String message = cause.getMessage();
    return message == null || message.isBlank() ? cause.toString()
        : message.lines().findFirst().orElse(message);
  }
}
