package io.shelfmark.catalog;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.CatalogException.Reason;
import io.shelfmark.config.cluster.CatalogConfig;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.RESTClient;
import org.apache.iceberg.rest.RESTSessionCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens Iceberg's {@link RESTCatalog} with Shelfmark's FileIO. Initialising asks the server for its
 * configuration ({@code GET /v1/config}), so an unreachable server or a URL that is not an Iceberg
 * REST catalog is reported here, not at the first table load.
 */
final class RestCatalogOpener {
  private static final Logger log = LoggerFactory.getLogger(RestCatalogOpener.class);

  private RestCatalogOpener() {}

  static Catalog open(CatalogConfig config, Function<Map<String, String>, FileIO> fileIO) {
    String uri = checkUri(config);
    Map<String, String> properties = new LinkedHashMap<>(config.properties());
    properties.put(CatalogProperties.URI, uri);
    config.warehouse().ifPresent(w -> properties.put(CatalogProperties.WAREHOUSE_LOCATION, w));

    RESTCatalog catalog = new ShelfmarkRestCatalog(fileIO);
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
    log.info("Opened REST catalog '{}' at {}", config.name(), Catalogs.displayUri(config));
    return catalog;
  }

  private static String checkUri(CatalogConfig config) {
    String uri =
        config
            .uri()
            .orElseThrow(
                () ->
                    new CatalogException(
                        Reason.CONFIGURATION,
                        "Cannot open catalog '%s' of type rest: catalog.uri is not set (set it to the server's base URL such as http://host:8181)"
                            .formatted(config.name())));
    try {
      URI parsed = new URI(uri);
      String scheme = parsed.getScheme();
      if (parsed.getHost() != null && ("http".equals(scheme) || "https".equals(scheme))) {
        return uri;
      }
    } catch (URISyntaxException e) {
      throw badUri(config, e.getMessage(), e);
    }
    throw badUri(config, "not an http:// or https:// URL with a host", null);
  }

  private static CatalogException badUri(CatalogConfig config, String problem, Exception cause) {
    return new CatalogException(
        Reason.CONFIGURATION,
        "Cannot open catalog '%s' at %s: %s (set catalog.uri to the server's base URL such as http://host:8181)"
            .formatted(config.name(), Catalogs.displayUri(config), problem),
        cause);
  }

  private static CatalogException initializationFailure(CatalogConfig config, RuntimeException e) {
    String at =
        "Cannot open catalog '%s' at %s: ".formatted(config.name(), Catalogs.displayUri(config));
    if (CatalogErrors.isUnreachable(e)) {
      return new CatalogException(
          Reason.UNREACHABLE,
          at
              + "the REST server is not reachable: %s (start it, or fix catalog.uri)"
                  .formatted(CatalogErrors.describe(CatalogErrors.rootCause(e))),
          e);
    }
    if (e instanceof NotAuthorizedException || e instanceof ForbiddenException) {
      return new CatalogException(
          Reason.CONFIGURATION,
          at
              + "not authorized: %s (check the catalog's credential or token property)"
                  .formatted(CatalogErrors.describe(e)),
          e);
    }
    return new CatalogException(
        Reason.FAILED,
        at
            + "%s (check that catalog.uri is the base URL of an Iceberg REST catalog)"
                .formatted(CatalogErrors.describe(e)),
        e);
  }

  /**
   * A {@link RESTCatalog} whose session catalog builds FileIOs with Shelfmark's factory instead of
   * loading {@code io-impl} reflectively (which could not hand it the shared store).
   */
  private static final class ShelfmarkRestCatalog extends RESTCatalog {
    private final Function<Map<String, String>, FileIO> fileIO;

    ShelfmarkRestCatalog(Function<Map<String, String>, FileIO> fileIO) {
      this.fileIO = requireNonNull(fileIO, "fileIO is null");
    }

    @Override
    protected RESTSessionCatalog newSessionCatalog(
        Function<Map<String, String>, RESTClient> clientBuilder) {
      // Called from RESTCatalog's constructor, before this class's fields are set: the lambda reads
      // the field when Iceberg asks for a FileIO, during initialize(), by which time it is set.
      return new RESTSessionCatalog(
          clientBuilder, (context, properties) -> fileIO.apply(properties));
    }
  }
}
