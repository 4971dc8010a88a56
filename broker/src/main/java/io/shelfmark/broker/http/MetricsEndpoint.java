package io.shelfmark.broker.http;

import static java.util.Objects.requireNonNull;

/**
 * What {@code GET /metrics} answers: the node's metrics in a Prometheus exposition format. The
 * registry behind it belongs to the node's assembly; the HTTP endpoint only hands over its text.
 */
@FunctionalInterface
public interface MetricsEndpoint {
  /** A node without metrics: {@code /metrics} answers 404. */
  MetricsEndpoint NONE = accept -> null;

  /**
   * The metrics now, in the format {@code accept} (the request's Accept header, possibly empty)
   * prefers among those the registry writes; null when this node has no metrics.
   */
  Scrape scrape(String accept);

  /** A scrape's body and its content type. */
  record Scrape(String contentType, String body) {
    public Scrape {
      requireNonNull(contentType, "contentType is null");
      requireNonNull(body, "body is null");
    }
  }
}
