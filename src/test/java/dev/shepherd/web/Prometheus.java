package dev.shepherd.web;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads sample values out of Prometheus text exposition (tests only). */
final class Prometheus {
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)\\})?\\s+(\\S+)$");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"([^\"]*)\"");

  private Prometheus() {}

  /** The value of the sample {@code name} whose labels include {@code labels}, or NaN. */
  static double value(String text, String name, String... labels) {
    Map<String, String> wanted = new TreeMap<>();
    for (int i = 0; i < labels.length; i += 2) {
      wanted.put(labels[i], labels[i + 1]);
    }
    for (String line : text.split("\n")) {
      Matcher m = SAMPLE.matcher(line.trim());
      if (!m.matches() || !m.group(1).equals(name)) {
        continue;
      }
      Map<String, String> have = new TreeMap<>();
      if (m.group(3) != null) {
        Matcher l = LABEL.matcher(m.group(3));
        while (l.find()) {
          have.put(l.group(1), l.group(2));
        }
      }
      if (have.entrySet().containsAll(wanted.entrySet())) {
        return Double.parseDouble(m.group(4));
      }
    }
    return Double.NaN;
  }
}
