package io.shelfmark.catalog;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.io.ObjectStoreFileIO;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * An Iceberg REST catalog server inside the test JVM: Iceberg's own REST fixture servlet and
 * adapter ({@code RESTCatalogServlet} over {@code RESTCatalogAdapter}, the pieces its {@code
 * RESTCatalogServer} wraps) in Jetty on 127.0.0.1 and a free port, backed by a JDBC catalog on a
 * SQLite file with an explicit warehouse.
 *
 * <p>The backend catalog is built the way Iceberg builds one from configuration ({@code
 * CatalogUtil.buildIcebergCatalog}), with {@code io-impl} naming {@link ObjectStoreFileIO}, so it
 * also exercises the FileIO's reflective loading. ({@code RESTCatalogServer} itself is not used:
 * its constructor is package-private and its {@code main} reads the port only from a {@code
 * CATALOG_REST_PORT} environment variable and binds every interface.)
 */
public final class TestingRestCatalogServer implements AutoCloseable {
  private final Server server;
  private final Catalog backend;
  private final URI uri;

  private TestingRestCatalogServer(Server server, Catalog backend, URI uri) {
    this.server = requireNonNull(server, "server is null");
    this.backend = requireNonNull(backend, "backend is null");
    this.uri = requireNonNull(uri, "uri is null");
  }

  /**
   * Starts a server whose tables live under {@code warehouse}, with catalog state in {@code
   * sqliteFile} and files written through a store built from {@code fileIOProperties}.
   */
  public static TestingRestCatalogServer start(
      String warehouse, String sqliteFile, Map<String, String> fileIOProperties) throws Exception {
    Map<String, String> properties = new HashMap<>(fileIOProperties);
    properties.put(CatalogProperties.CATALOG_IMPL, JdbcCatalog.class.getName());
    properties.put(CatalogProperties.URI, "jdbc:sqlite:" + sqliteFile);
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse);
    properties.put(CatalogProperties.FILE_IO_IMPL, ObjectStoreFileIO.class.getName());
    properties.put("jdbc.schema-version", "V1");
    Catalog backend = CatalogUtil.buildIcebergCatalog("rest_backend", properties, null);

    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(
        new ServletHolder(new RESTCatalogServlet(new RESTCatalogAdapter(backend))), "/*");
    server.setHandler(context);
    server.start();
    URI uri = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    return new TestingRestCatalogServer(server, backend, uri);
  }

  /** The base URL clients use as {@code catalog.uri}. */
  public URI uri() {
    return uri;
  }

  @Override
  public void close() throws Exception {
    try {
      server.stop();
    } finally {
      if (backend instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
  }
}
