package io.shelfmark.broker.console;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The web console's static files, read from the class path: the console's own ES modules, style
 * sheet and page ({@code io/shelfmark/broker/console/}), and uPlot's minified script (50 KB; the
 * webjar's ES module is its 140 KB unminified source) and style sheet from its webjar, whatever
 * version the build put on the class path. Nothing is generated and nothing is bundled: the browser
 * loads the modules as they are.
 *
 * <p>Paths: {@code /} is the page; {@code /console/<name>} a console file; {@code
 * /console/vendor/uplot.js} and {@code /console/vendor/uplot.css} the chart library. Every other
 * path is no asset, so a name can never reach outside these files. Files are read once and kept
 * (they are a few tens of kilobytes). Thread safe.
 */
public final class ConsoleAssets {
  /** Where the console's own files live on the class path. */
  static final String ROOT = "io/shelfmark/broker/console/";

  private static final String WEBJAR_PROPERTIES =
      "META-INF/maven/org.webjars.npm/uplot/pom.properties";

  /** Plain names only: no slash, no dot-dot, so the class path outside ROOT is out of reach. */
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*\\.(js|css|html|svg)");

  private static final Map<String, String> TYPES =
      Map.of(
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "html", "text/html; charset=utf-8",
          "svg", "image/svg+xml");

  private final ClassLoader loader;

  /** Files found, by path; misses are not kept, so requests for made-up names cannot grow it. */
  private final Map<String, Asset> loaded = new ConcurrentHashMap<>();

  /** A static file and its media type. */
  public record Asset(String contentType, byte[] body) {
    public Asset {
      requireNonNull(contentType, "contentType is null");
      requireNonNull(body, "body is null");
    }
  }

  public ConsoleAssets() {
    this(ConsoleAssets.class.getClassLoader());
  }

  ConsoleAssets(ClassLoader loader) {
    this.loader = requireNonNull(loader, "loader is null");
  }

  /** Whether {@code path} is the console's: {@code /} or below {@code /console/}. */
  public static boolean owns(String path) {
    return path.equals("/") || path.equals("/console") || path.startsWith("/console/");
  }

  /**
   * The file {@code path} names; empty when it names none.
   *
   * @throws UncheckedIOException when a file on the class path cannot be read (a broken jar)
   */
  public Optional<Asset> asset(String path) {
    requireNonNull(path, "path is null");
    Asset known = loaded.get(path);
    if (known != null) {
      return Optional.of(known);
    }
    Optional<Asset> found = load(path);
    found.ifPresent(asset -> loaded.put(path, asset));
    return found;
  }

  private Optional<Asset> load(String path) {
    if (path.equals("/") || path.equals("/console")) {
      return read(ROOT + "index.html", TYPES.get("html"));
    }
    if (path.equals("/console/vendor/uplot.js") || path.equals("/console/vendor/uplot.css")) {
      boolean script = path.endsWith(".js");
      return uplotVersion()
          .flatMap(
              version ->
                  read(
                      "META-INF/resources/webjars/uplot/"
                          + version
                          + (script ? "/dist/uPlot.iife.min.js" : "/dist/uPlot.min.css"),
                      TYPES.get(script ? "js" : "css")));
    }
    String name = path.substring("/console/".length());
    if (!NAME.matcher(name).matches()) {
      return Optional.empty();
    }
    return read(ROOT + name, TYPES.get(name.substring(name.lastIndexOf('.') + 1)));
  }

  /** The version of the uPlot webjar on the class path, from its Maven properties. */
  private Optional<String> uplotVersion() {
    try (InputStream in = loader.getResourceAsStream(WEBJAR_PROPERTIES)) {
      if (in == null) {
        return Optional.empty();
      }
      Properties properties = new Properties();
      properties.load(in);
      return Optional.ofNullable(properties.getProperty("version"));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read " + WEBJAR_PROPERTIES + " from the class path", e);
    }
  }

  private Optional<Asset> read(String resource, String contentType) {
    try (InputStream in = loader.getResourceAsStream(resource)) {
      return in == null ? Optional.empty() : Optional.of(new Asset(contentType, in.readAllBytes()));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read the console file " + resource + " from the class path", e);
    }
  }
}
