package io.shelfmark.cli.hostile;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.HttpConfig;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.cluster.WarmupConfig;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.testing.iceberg.IcebergScenario;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A real node (every role in one JVM over the embedded S3 lake) serving one small table, {@code
 * hostile.events}, and a raw-socket HTTP client: hostile requests are bytes on a socket, not what a
 * well-behaved client library would send. The connection limits are small so tests reach them fast.
 */
final class HostileNode implements AutoCloseable {
  static final String TABLE = "hostile.events";
  static final Duration REQUEST_READ_TIMEOUT = Duration.ofMillis(500);
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(2);
  static final int MAX_CONNECTIONS_PER_CLIENT = 12;
  static final int ROWS = 200;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final LocalLake lake;
  private final AllInOne node;
  private final int port;

  private HostileNode(LocalLake lake, AllInOne node) {
    this.lake = lake;
    this.node = node;
    this.port = URI.create(node.url()).getPort();
  }

  static HostileNode start(Path directory) throws Exception {
    LocalLake lake = LocalLake.start(directory.resolve("lake"), 0);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("hostile"));
    }
    create(lake, "events");
    Path nodeDir = directory.resolve("node");
    AllInOne node =
        AllInOne.start(
            ClusterConfig.builder()
                .storage(lake.storageConfig())
                .catalog(lake.catalogConfig())
                .segmentStore("s3://" + LocalLake.BUCKET + "/_shelfmark/segments/")
                .dataDir(nodeDir)
                .segmentMode(SegmentMode.REMOTE)
                .warmup(WarmupConfig.off())
                .http(
                    new HttpConfig(
                        REQUEST_READ_TIMEOUT, IDLE_TIMEOUT, 64, MAX_CONNECTIONS_PER_CLIENT))
                .cache(
                    CacheConfig.builder()
                        .memoryMaxSize(DataSize.of(64, DataSize.Unit.MEBIBYTE))
                        .diskMaxSize(DataSize.of(0, DataSize.Unit.BYTE))
                        .build(nodeDir))
                .build(),
            Map.of(LocalLake.CATALOG_NAME, lake.catalog()),
            lake.store(),
            0);
    onboard(node, "events");
    return new HostileNode(lake, node);
  }

  int port() {
    return port;
  }

  /** Creates {@code hostile.<name>} with {@value #ROWS} rows and waits until it is served. */
  void addTable(String name) throws Exception {
    create(lake, name);
    onboard(node, name);
  }

  /**
   * Deletes the Parquet files of {@code hostile.<name>} from the embedded S3 server's directory, so
   * that reading them fails in storage.
   */
  void deleteDataFiles(String name) throws IOException {
    try (var files = java.nio.file.Files.walk(lake.s3().baseDirectory())) {
      for (Path file :
          files
              .filter(f -> f.toString().contains("/hostile/" + name + "/"))
              .filter(f -> f.toString().contains(".parquet"))
              .toList()) {
        java.nio.file.Files.delete(file);
      }
    }
  }

  private static void create(LocalLake lake, String name) {
    IcebergScenario scenario =
        IcebergScenario.create(
            lake.catalog(),
            TableIdentifier.of("hostile", name),
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.s3Files(lake.s3().baseDirectory()),
            21);
    scenario.append(ROWS);
  }

  private static void onboard(AllInOne node, String name) throws Exception {
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "hostile", name))
                .column("category", ColumnConfig.of(IndexKind.INVERTED))
                .column("quantity", ColumnConfig.of(IndexKind.RANGE))
                .build());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> node.registry().table("hostile." + name).orElseThrow().segmentsPending() == 0);
  }

  /** A reply read to the end of the connection. */
  record Reply(int status, String head, String body) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }

    /** The message of a query error, or of a plain {@code {"error": ...}} body. */
    String message() throws IOException {
      JsonNode json = json();
      return json.has("error")
          ? json.path("error").asText()
          : json.path("exceptions").path(0).path("message").asText();
    }
  }

  /** POSTs {@code {"sql": sql}} (plus {@code extra} JSON members) and reads the reply. */
  Reply query(String sql, String extra) throws IOException {
    String body =
        "{\"sql\": "
            + JsonNodeFactory.instance.textNode(sql)
            + (extra.isEmpty() ? "" : ", ")
            + extra
            + "}";
    return post("/query/sql", body);
  }

  Reply query(String sql) throws IOException {
    return query(sql, "");
  }

  Reply post(String path, String body) throws IOException {
    byte[] bytes = body.getBytes(UTF_8);
    String head =
        "POST "
            + path
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: "
            + bytes.length
            + "\r\nConnection: close\r\n\r\n";
    return exchange(concat(head.getBytes(UTF_8), bytes));
  }

  Reply get(String path) throws IOException {
    return exchange(
        ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            .getBytes(UTF_8));
  }

  /** Writes {@code request} on a new connection and reads until the server closes it. */
  Reply exchange(byte[] request) throws IOException {
    try (Socket socket = open()) {
      socket.getOutputStream().write(request);
      socket.getOutputStream().flush();
      return read(socket.getInputStream());
    }
  }

  Socket open() throws IOException {
    Socket socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(30_000);
    return socket;
  }

  static Reply read(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        bytes.write(buffer, 0, n);
      }
    } catch (SocketException e) {
      // A reset after the reply (the server closed with request bytes unread) ends the reply.
    }
    String text = bytes.toString(UTF_8);
    int end = text.indexOf("\r\n\r\n");
    assertThat(end).as("a complete HTTP response, got: %s", text).isPositive();
    String head = text.substring(0, end);
    int status = Integer.parseInt(head.substring(9, 12));
    return new Reply(status, head, text.substring(end + 4));
  }

  /** The node still answers a normal query correctly. */
  void assertHealthy() throws IOException {
    Reply reply = query("SELECT COUNT(*) FROM " + TABLE);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().path("exceptions")).as(reply.body()).isEmpty();
    assertThat(reply.json().path("resultTable").path("rows").path(0).path(0).asLong())
        .isEqualTo(ROWS);
  }

  /** The single value of a one-row, one-column answer. */
  long count(String sql) throws IOException {
    Reply reply = query(sql);
    assertThat(reply.json().path("exceptions")).as(sql + ": " + reply.body()).isEmpty();
    return reply.json().path("resultTable").path("rows").path(0).path(0).asLong();
  }

  Path s3Directory() {
    return lake.s3().baseDirectory();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] result = new byte[a.length + b.length];
    System.arraycopy(a, 0, result, 0, a.length);
    System.arraycopy(b, 0, result, a.length, b.length);
    return result;
  }

  @Override
  public void close() throws Exception {
    try {
      node.close();
    } finally {
      lake.close();
    }
  }
}
