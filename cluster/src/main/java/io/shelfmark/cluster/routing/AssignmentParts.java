package io.shelfmark.cluster.routing;

import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The encoding of a split record's parts: the files, in the record's order, cut into consecutive
 * runs of at most {@code maxJsonBytes} of JSON each, every run written as {@code {"files": {path:
 * replicas, …}}} and gzip'd. The bound is on the JSON before compression, so a part stays under it
 * whatever the paths compress to (gzip adds a few bytes at worst); compression only makes the
 * parts, and so the state ZooKeeper keeps and sends to every follower, smaller (about 8× for
 * typical Iceberg paths). Gzip's own CRC-32 checks each part when read.
 */
final class AssignmentParts {
  private static final ObjectMapper JSON =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private static final byte[] OPEN = "{\"files\":{".getBytes(StandardCharsets.UTF_8);
  private static final byte[] CLOSE = "}}".getBytes(StandardCharsets.UTF_8);

  /** One part's value, as read. */
  record Part(Map<String, FileReplicas> files) {}

  private AssignmentParts() {}

  /**
   * The gzip'd parts of {@code files}, each of at most {@code maxJsonBytes} of JSON but one file.
   */
  static List<byte[]> encode(Map<String, FileReplicas> files, int maxJsonBytes) throws IOException {
    checkArgument(maxJsonBytes > OPEN.length + CLOSE.length, "maxJsonBytes %s", maxJsonBytes);
    List<byte[]> parts = new ArrayList<>();
    ByteArrayOutputStream json = new ByteArrayOutputStream();
    int entries = 0;
    for (Map.Entry<String, FileReplicas> file : files.entrySet()) {
      byte[] key = JSON.writeValueAsBytes(file.getKey());
      byte[] value = JSON.writeValueAsBytes(file.getValue());
      int size = key.length + 1 + value.length + 1; // ':' and ','
      if (entries > 0 && OPEN.length + json.size() + size + CLOSE.length > maxJsonBytes) {
        parts.add(gzip(json));
        json.reset();
        entries = 0;
      }
      if (entries > 0) {
        json.write(',');
      }
      json.write(key);
      json.write(':');
      json.write(value);
      entries++;
    }
    if (entries > 0 || parts.isEmpty()) {
      parts.add(gzip(json));
    }
    return parts;
  }

  /** The files of one part; {@code path} names it in errors. */
  static Map<String, FileReplicas> decode(String path, byte[] bytes) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
      Part part = JSON.readValue(in, Part.class);
      if (part.files() == null) {
        throw new IOException("it has no \"files\"");
      }
      return new LinkedHashMap<>(part.files());
    } catch (IOException e) {
      throw new IOException(
          "Cannot read part %s of an assignment or routing: it is not gzip'd JSON of files (%s;"
                  .formatted(path, e.getMessage())
              + " delete the record's node above it: the leading controller writes it again)",
          e);
    }
  }

  private static byte[] gzip(ByteArrayOutputStream entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(entries.size() / 4 + 64);
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      out.write(OPEN);
      entries.writeTo(out);
      out.write(CLOSE);
    }
    return bytes.toByteArray();
  }
}
