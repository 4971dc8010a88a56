package io.shelfmark.cli.bench.run;

import io.shelfmark.cli.Shelfmark;
import io.shelfmark.testing.oracle.DuckDbOracle;
import java.io.IOException;
import java.io.InputStream;
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
    versions.put("roaringbitmap", maven("org.roaringbitmap", "RoaringBitmap"));
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

  private static String duckDb() {
    try (DuckDbOracle duckDb = DuckDbOracle.open()) {
      return String.valueOf(duckDb.query("SELECT version()").rows().get(0).get(0));
    }
  }
}
