package dev.shepherd.runtime.payload;

/**
 * Makes text from outside (job ids, keys, worker messages, request paths) safe to put in a log
 * line: quoted, with control characters, line and paragraph separators and the quote itself
 * escaped, and clipped, so that no client can forge a log line or flood one.
 */
public final class LogText {
  /** Characters of a value kept in a log line; the rest is replaced by an ellipsis. */
  public static final int MAX_CHARS = 200;

  private LogText() {}

  /** {@code value} in double quotes, escaped and clipped; {@code null} for null. */
  public static String quote(Object value) {
    if (value == null) {
      return "null";
    }
    String text = String.valueOf(value);
    int end = Math.min(text.length(), MAX_CHARS);
    StringBuilder out = new StringBuilder(end + 8).append('"');
    for (int i = 0; i < end; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f || c == '\u0085' || c == '\u2028' || c == '\u2029'
              || (c >= '\u200e' && c <= '\u200f') || (c >= '\u202a' && c <= '\u202e')
              || (c >= '\u2066' && c <= '\u2069')) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    if (text.length() > end) {
      out.append("…(").append(text.length()).append(" chars)");
    }
    return out.append('"').toString();
  }

  /**
   * {@code failure} made fit for a logged stack trace: the same frames, with its text (and its
   * causes', a few deep) quoted, so that no message can start a line of its own.
   */
  public static Throwable traceOnly(Throwable failure) {
    return quoted(failure, 0);
  }

  private static Throwable quoted(Throwable failure, int depth) {
    if (failure == null || depth > 8) {
      return null;
    }
    Quoted copy = new Quoted(quote(failure), quoted(failure.getCause(), depth + 1));
    copy.setStackTrace(failure.getStackTrace());
    return copy;
  }

  /** A stand-in carrying the quoted text of a throwable and its frames. */
  static final class Quoted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Quoted(String text, Throwable cause) {
      super(text, cause, false, true);
    }
  }
}
