package dev.shepherd;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.function.Supplier;
import org.slf4j.Marker;
import org.slf4j.LoggerFactory;

/**
 * Silences the project's loggers below ERROR on one thread while it runs a task, and on that
 * thread only: a test that makes the runtime warn thousands of times (a simulation's faults) keeps
 * its noise to itself while other test classes run beside it, whose levels and captured logs
 * ({@link LogCapture}) it leaves alone.
 */
public final class QuietThread {
  private static final ThreadLocal<Boolean> QUIET = ThreadLocal.withInitial(() -> false);

  static {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.addTurboFilter(new TurboFilter() {
      @Override
      public FilterReply decide(Marker marker, Logger logger, Level level, String format,
          Object[] params, Throwable t) {
        return QUIET.get() && level.toInt() < Level.ERROR_INT
            && logger.getName().startsWith("dev.shepherd") ? FilterReply.DENY : FilterReply.NEUTRAL;
      }
    });
  }

  private QuietThread() {}

  /** {@code task}'s result, with {@code dev.shepherd}'s lines below ERROR dropped meanwhile. */
  public static <T> T run(Supplier<T> task) {
    boolean before = QUIET.get();
    QUIET.set(true);
    try {
      return task.get();
    } finally {
      QUIET.set(before);
    }
  }
}
