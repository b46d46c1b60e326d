package dev.shepherd.runtime.ha;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Loads, without initializing them, the classes of the pool's core, runtime and cluster packages
 * from wherever Shepherd's own classes come from (its jar, or a classes directory), so that a
 * standby that takes over does not load them then. A takeover opens a coordinator and its
 * observers on a JVM that never ran one: about 110 of Shepherd's classes were loaded in the
 * quarter second between a claim and the pool's recovery in {@code HaBench}
 * (docs/benchmarks.md, HA section). Loading without initializing runs no static initializer, so
 * nothing happens but the loading.
 */
public final class TakeoverClasses {
  /** The packages loaded, as paths, with their subpackages. */
  static final List<String> PACKAGES = List.of("dev/shepherd/core/", "dev/shepherd/runtime/",
      "dev/shepherd/cluster/");

  private TakeoverClasses() {}

  /** Loads the classes with {@code loader}; how many were loaded (0 if none could be found). */
  public static int load(ClassLoader loader) {
    int loaded = 0;
    for (String name : names()) {
      try {
        Class.forName(name, false, loader);
        loaded++;
      } catch (ClassNotFoundException | LinkageError e) {
        // Not loadable here (an optional dependency absent): a takeover would not need it.
      }
    }
    return loaded;
  }

  /** The binary names of the classes in {@link #PACKAGES} where this class came from. */
  static List<String> names() {
    URL location = TakeoverClasses.class.getProtectionDomain().getCodeSource() == null ? null
        : TakeoverClasses.class.getProtectionDomain().getCodeSource().getLocation();
    if (location == null) {
      return List.of();
    }
    try {
      File from = new File(location.toURI());
      return from.isDirectory() ? inDirectory(from.toPath()) : inJar(from);
    } catch (URISyntaxException | IOException | IllegalArgumentException e) {
      return List.of();
    }
  }

  private static List<String> inJar(File jar) throws IOException {
    List<String> names = new ArrayList<>();
    try (JarFile file = new JarFile(jar)) {
      Enumeration<JarEntry> entries = file.entries();
      while (entries.hasMoreElements()) {
        add(entries.nextElement().getName(), names);
      }
    }
    return names;
  }

  private static List<String> inDirectory(Path root) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      files.forEach(f -> add(root.relativize(f).toString().replace(File.separatorChar, '/'),
          names));
    }
    return names;
  }

  private static void add(String path, List<String> names) {
    if (!path.endsWith(".class") || path.endsWith("module-info.class")
        || path.endsWith("package-info.class")) {
      return;
    }
    for (String p : PACKAGES) {
      if (path.startsWith(p)) {
        names.add(path.substring(0, path.length() - ".class".length()).replace('/', '.'));
        return;
      }
    }
  }
}
