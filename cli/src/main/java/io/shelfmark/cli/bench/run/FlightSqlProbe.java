package io.shelfmark.cli.bench.run;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Runs one query at a time against a broker's Arrow Flight SQL endpoint, as the hot runs do over
 * HTTP: client-observed, from asking for the statement's FlightInfo to the last record batch read,
 * on one connection opened before. Not thread safe.
 */
final class FlightSqlProbe implements AutoCloseable {
  private final BufferAllocator allocator = new RootAllocator();
  private final FlightSqlClient client;

  FlightSqlProbe(String host, int port) {
    this.client =
        new FlightSqlClient(
            FlightClient.builder(allocator, Location.forGrpcInsecure(host, port)).build());
  }

  /**
   * Runs {@code sql} once, reading every batch.
   *
   * @return the client-observed latency in nanoseconds
   * @throws org.apache.arrow.flight.FlightRuntimeException when the query fails
   */
  long run(String sql) throws Exception {
    long start = System.nanoTime();
    FlightInfo info = client.execute(sql);
    try (FlightStream stream = client.getStream(info.getEndpoints().getFirst().getTicket())) {
      while (stream.next()) {
        // each batch is read in full by next()
      }
    }
    return System.nanoTime() - start;
  }

  @Override
  public void close() throws Exception {
    client.close();
    allocator.close();
  }
}
