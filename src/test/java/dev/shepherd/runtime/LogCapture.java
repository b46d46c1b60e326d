package dev.shepherd.runtime;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The log as it is written, for the tests where a log line is the feature (an injected newline
 * must not start a line of its own; a failure is logged once): an appender on the root logger
 * with a layout like the shipped one, stack traces included, writing into memory until closed.
 */
public final class LogCapture implements AutoCloseable {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
  private final Logger root;

  private LogCapture() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%-5level %logger{24} - %msg%n");
    encoder.start();
    appender.setContext(context);
    appender.setName("capture-" + System.identityHashCode(this));
    appender.setEncoder(encoder);
    appender.setImmediateFlush(true);
    appender.setOutputStream(bytes);
    appender.start();
    root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
  }

  /** Starts capturing everything logged from now on. */
  public static LogCapture start() {
    return new LogCapture();
  }

  /** Every line written so far (a stack trace is several). */
  public List<String> lines() {
    synchronized (bytes) {
      return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    appender.stop();
  }
}
