package io.shelfmark.cli.bench.run;

import io.shelfmark.cli.Shelfmark;
import io.shelfmark.testing.oracle.DuckDbOracle;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** The versions a report records: Shelfmark and the libraries its figures depend on. */
final class Versions {
  private Versions() {}

  static Map<String, String> current() {
    Map<String, String> versions = new TreeMap<>();
    String shelfmark = Shelfmark.class.getPackage().getImplementationVersion();
    versions.put("shelfmark", shelfmark == null ? "development build" : shelfmark);
    versions.put("java", Runtime.version().toString());
    versions.put("iceberg", org.apache.iceberg.IcebergBuild.version());
    versions.put("parquet-java", maven("org.apache.parquet", "parquet-format-structures"));
    // RoaringBitmap's jar carries no Maven metadata: its file name is the only record.
    versions.put(
        "roaringbitmap", jarFileVersion(org.roaringbitmap.RoaringBitmap.class, "RoaringBitmap"));
    versions.put("xchart", maven("org.knowm.xchart", "xchart"));
    versions.put("duckdb", duckDb());
    return versions;
  }

  /** The version in a jar's Maven metadata, or "unknown". */
  static String maven(String group, String artifact) {
    String resource = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
    try (InputStream in = Versions.class.getResourceAsStream(resource)) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /**
   * The version in the name of the jar {@code type} was loaded from ({@code
   * <artifact>-<version>.jar}, as Maven lays out its repository), or "unknown".
   */
  static String jarFileVersion(Class<?> type, String artifact) {
    try {
      CodeSource source = type.getProtectionDomain().getCodeSource();
      if (source == null || source.getLocation() == null) {
        return "unknown";
      }
      Path jar = Path.of(source.getLocation().toURI()).getFileName();
      String name = jar == null ? "" : jar.toString();
      String prefix = artifact + "-";
      return name.startsWith(prefix) && name.endsWith(".jar")
          ? name.substring(prefix.length(), name.length() - ".jar".length())
          : "unknown";
    } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
      return "unknown";
    }
  }

  private static String duckDb() {
    try (DuckDbOracle duckDb = DuckDbOracle.open()) {
      return String.valueOf(duckDb.query("SELECT version()").rows().get(0).get(0));
    }
  }
}
