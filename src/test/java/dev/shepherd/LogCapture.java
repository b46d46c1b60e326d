package dev.shepherd;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.read.ListAppender;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * The log of this JVM while open, collected instead of printed, for the tests whose subject is the
 * log itself (no stack traces for bad input, no forged lines, a failure logged once). The given
 * loggers are turned up to DEBUG meanwhile. Tests run one at a time, so what it collects comes
 * from the test that opened it and the servers it started.
 */
public final class LogCapture implements AutoCloseable {
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final PatternLayout layout = new PatternLayout();
  private final Logger root;
  private final Map<Logger, Level> levels = new HashMap<>();
  private final Appender<ILoggingEvent> console;

  private LogCapture(String... debugLoggers) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    for (String name : debugLoggers) {
      Logger logger = context.getLogger(name);
      levels.put(logger, logger.getLevel());
      logger.setLevel(Level.DEBUG);
    }
    // Like the shipped layout, stack traces included (a layout adds them when it names none).
    layout.setContext(context);
    layout.setPattern("%-5level %logger{24} - %msg%n");
    layout.start();
    appender.setContext(context);
    appender.start();
    root.addAppender(appender);
    console = root.getAppender("STDOUT");
    if (console != null) {
      root.detachAppender(console);
    }
  }

  /** Starts collecting everything logged from now on, with {@code debugLoggers} at DEBUG. */
  public static LogCapture start(String... debugLoggers) {
    return new LogCapture(debugLoggers);
  }

  public List<ILoggingEvent> events() {
    synchronized (appender.list) {
      return List.copyOf(appender.list);
    }
  }

  /** Events at ERROR or WARN, or carrying a stack trace. */
  public List<ILoggingEvent> alarming() {
    return events().stream()
        .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN) || e.getThrowableProxy() != null)
        .toList();
  }

  /** Every line as it would be written so far (a stack trace is several). */
  public List<String> lines() {
    return events().stream().flatMap(e -> layout.doLayout(e).lines()).toList();
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    appender.stop();
    layout.stop();
    levels.forEach(Logger::setLevel);
    if (console != null) {
      root.addAppender(console);
    }
  }
}
