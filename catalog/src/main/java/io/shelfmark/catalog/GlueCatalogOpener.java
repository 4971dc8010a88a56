package io.shelfmark.catalog;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.CatalogException.Reason;
import io.shelfmark.catalog.io.FileIOProperties;
import io.shelfmark.catalog.io.ObjectStoreFileIO;
import io.shelfmark.catalog.io.SharedObjectStores;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.AwsProperties;
import org.apache.iceberg.aws.HttpClientProperties;
import org.apache.iceberg.aws.glue.GlueCatalog;
import org.apache.iceberg.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens iceberg-aws's {@link GlueCatalog} reading through Shelfmark's object store.
 *
 * <p>GlueCatalog builds each table's FileIO itself, reflectively, from the catalog properties
 * ({@code io-impl}); without one it would make an {@code S3FileIO} with its own S3 client and
 * credentials. So unless the user names an {@code io-impl}, the opener registers the node's store
 * in {@link SharedObjectStores} and sets {@code io-impl} to {@link ObjectStoreFileIO} with {@value
 * FileIOProperties#SHARED_STORE}: every metadata file and manifest is read by the same client (and
 * counted by the same metrics) as the data files.
 *
 * <p>The catalog is iceberg-aws's class itself, not a subclass: subclassing it needs Hadoop's
 * {@code Configuration} at compile time (it is {@code Configurable<Configuration>}), and Shelfmark
 * keeps Hadoop off this module.
 *
 * <p>Glue itself is reached with the AWS SDK defaults unless properties say otherwise: credentials
 * from the default chain (environment, profile, instance profile on EC2), region {@value
 * AwsClientProperties#CLIENT_REGION} (the config loader sets it from {@code storage.region} when
 * absent), endpoint {@value AwsProperties#GLUE_CATALOG_ENDPOINT} for a Glue-compatible server.
 * Opening makes no request; the first table load reports an unreachable endpoint or missing
 * credentials.
 */
final class GlueCatalogOpener {
  /**
   * Glue answers a handful of small requests per table refresh: the JDK's URL connection client is
   * enough and brings no dependency (iceberg-aws would otherwise want Apache HttpClient 4).
   */
  static final String DEFAULT_HTTP_CLIENT = HttpClientProperties.CLIENT_TYPE_URLCONNECTION;

  private static final Logger log = LoggerFactory.getLogger(GlueCatalogOpener.class);

  private GlueCatalogOpener() {}

  static Catalog open(CatalogConfig config, ObjectStore store) {
    requireNonNull(config, "config is null");
    requireNonNull(store, "store is null");
    checkEndpoint(config);
    checkNoLakeFormation(config);

    Map<String, String> properties = new LinkedHashMap<>(config.properties());
    config.warehouse().ifPresent(w -> properties.put(CatalogProperties.WAREHOUSE_LOCATION, w));
    properties.putIfAbsent(HttpClientProperties.CLIENT_TYPE, DEFAULT_HTTP_CLIENT);
    if (!properties.containsKey(CatalogProperties.FILE_IO_IMPL)) {
      properties.put(CatalogProperties.FILE_IO_IMPL, ObjectStoreFileIO.class.getName());
      properties.put(FileIOProperties.SHARED_STORE, SharedObjectStores.register(store));
    }

    GlueCatalog catalog = new GlueCatalog();
    try {
      catalog.initialize(config.name(), properties);
    } catch (RuntimeException e) {
      CatalogException failure = initializationFailure(config, e);
      try {
        catalog.close();
      } catch (IOException | RuntimeException closing) {
        failure.addSuppressed(closing);
      }
      throw failure;
    }
    log.info("Opened Glue catalog '{}' at {}", config.name(), displayEndpoint(config));
    return catalog;
  }

  /** Where the catalog's Glue is, for messages: the endpoint override or AWS Glue in a region. */
  static String displayEndpoint(CatalogConfig config) {
    String endpoint = config.properties().get(AwsProperties.GLUE_CATALOG_ENDPOINT);
    if (endpoint != null) {
      return endpoint;
    }
    String region = config.properties().get(AwsClientProperties.CLIENT_REGION);
    return region == null ? "AWS Glue (default region)" : "AWS Glue in " + region;
  }

  private static void checkEndpoint(CatalogConfig config) {
    String endpoint = config.properties().get(AwsProperties.GLUE_CATALOG_ENDPOINT);
    if (endpoint == null) {
      return;
    }
    try {
      URI uri = new URI(endpoint.strip());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (uri.getHost() != null && (scheme.equals("http") || scheme.equals("https"))) {
        return;
      }
    } catch (URISyntaxException e) {
      // reported below with the hint
    }
    throw new CatalogException(
        Reason.CONFIGURATION,
        "Cannot open catalog '%s' of type glue: catalog.properties.%s is %s (expected an http:// or https:// URL such as https://glue.eu-west-1.amazonaws.com, or remove it to use AWS Glue)"
            .formatted(config.name(), AwsProperties.GLUE_CATALOG_ENDPOINT, endpoint));
  }

  private static void checkNoLakeFormation(CatalogConfig config) {
    String lakeFormation = config.properties().get(AwsProperties.GLUE_LAKEFORMATION_ENABLED);
    if (lakeFormation != null && Boolean.parseBoolean(lakeFormation.strip())) {
      // With Lake Formation, GlueCatalog reads files through S3FileIO with vended credentials:
      // Shelfmark's store, its cache keys and its request counters would be bypassed.
      throw new CatalogException(
          Reason.UNSUPPORTED,
          "Cannot open catalog '%s' of type glue: catalog.properties.%s is true, and Lake Formation credential vending is not supported (remove it, and grant the node's role read access to the table's S3 locations)"
              .formatted(config.name(), AwsProperties.GLUE_LAKEFORMATION_ENABLED));
    }
  }

  private static CatalogException initializationFailure(CatalogConfig config, RuntimeException e) {
    String message = CatalogErrors.describe(e);
    String hint =
        message.toLowerCase(Locale.ROOT).contains("region")
            ? "set catalog.properties." + AwsClientProperties.CLIENT_REGION + " or storage.region"
            : "check catalog.properties";
    return new CatalogException(
        Reason.CONFIGURATION,
        "Cannot open catalog '%s' at %s: %s (%s)"
            .formatted(config.name(), displayEndpoint(config), message, hint),
        e);
  }
}
