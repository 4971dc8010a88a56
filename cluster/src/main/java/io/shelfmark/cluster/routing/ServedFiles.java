package io.shelfmark.cluster.routing;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cluster.state.VersionedJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * What one server reports it serves of a table's assignment: written by the server once the files'
 * segments are open and their deletes read, as an ephemeral node ({@code
 * assignments/<table>/served/<member id>}), so a server that dies takes its report with it.
 *
 * @param version the assignment version served
 * @param snapshotId that assignment's snapshot
 * @param files the data files served, by path
 */
public record ServedFiles(long version, long snapshotId, List<String> files) {
  /**
   * The largest report written: ZooKeeper refuses a request over {@code jute.maxbuffer} (1 MB less
   * a byte by default) by closing the connection, so the writer would see only a lost connection
   * after Curator's retries, not why.
   */
  public static final int MAX_BYTES = 1_000_000;

  /** A report's JSON up to this size is written as it is (what earlier versions read). */
  static final int PLAIN_MAX_BYTES = 512 << 10;

  public ServedFiles {
    files = List.copyOf(requireNonNull(files, "files is null"));
  }

  /**
   * This report as its node's value: JSON, gzip'd when over {@value #PLAIN_MAX_BYTES} bytes
   * (Iceberg's data file paths shrink about 4×, to some 30 bytes each, so a server can report about
   * 30,000 files of one table); {@link VersionedJson} reads both.
   *
   * @param table the table reported on, for the error
   * @throws IOException when even gzip'd it is over {@value #MAX_BYTES} bytes
   */
  public byte[] encode(String table) throws IOException {
    byte[] json = VersionedJson.toJson(this).getBytes(StandardCharsets.UTF_8);
    if (json.length <= PLAIN_MAX_BYTES) {
      return json;
    }
    ByteArrayOutputStream gzipped = new ByteArrayOutputStream(json.length / 3);
    try (OutputStream out = new GZIPOutputStream(gzipped)) {
      out.write(json);
    }
    if (gzipped.size() > MAX_BYTES) {
      throw new IOException(
          "Cannot report what this server serves of %s: its %d files' paths make %d bytes gzip'd, over the %d one ZooKeeper node holds (jute.maxbuffer) (add servers, so that each serves fewer of the table's files; a report is not split into parts as assignments and routings are)"
              .formatted(table, files.size(), gzipped.size(), MAX_BYTES));
    }
    return gzipped.toByteArray();
  }
}
