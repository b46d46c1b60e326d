package dev.shepherd.web;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.read.ListAppender;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Collects every log event of this JVM while open (instead of printing it), with the given loggers
 * turned up to DEBUG, for tests whose subject is the log itself (no stack traces for bad input,
 * no forged lines). Tests run one at a time, so what it collects comes from the test that opened
 * it and the servers it started.
 */
final class LogCapture implements AutoCloseable {
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Logger root;
  private final Map<Logger, Level> levels = new HashMap<>();
  private final Appender<ILoggingEvent> console;

  LogCapture(String... debugLoggers) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    for (String name : debugLoggers) {
      Logger logger = context.getLogger(name);
      levels.put(logger, logger.getLevel());
      logger.setLevel(Level.DEBUG);
    }
    appender.setContext(context);
    appender.start();
    root.addAppender(appender);
    // What is turned up is collected, not printed.
    console = root.getAppender("STDOUT");
    if (console != null) {
      root.detachAppender(console);
    }
  }

  List<ILoggingEvent> events() {
    synchronized (appender.list) {
      return List.copyOf(appender.list);
    }
  }

  /** Events at ERROR or WARN, or carrying a stack trace. */
  List<ILoggingEvent> alarming() {
    return events().stream()
        .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN) || e.getThrowableProxy() != null)
        .toList();
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    appender.stop();
    levels.forEach(Logger::setLevel);
    if (console != null) {
      root.addAppender(console);
    }
  }
}
