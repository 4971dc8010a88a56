package io.shelfmark.exchange.fragment;

/**
 * How a {@link FragmentResponse} travels over Arrow Flight: a {@code DoGet} whose ticket is the
 * encoded {@link PlanFragment}, answered by a stream of record batches with one binary column,
 * {@value #COLUMN}, whose values concatenated in order are the encoded response. Each value holds
 * at most {@link #MAX_CHUNK_BYTES}, so every gRPC message stays well below its 4 MiB default limit
 * whatever the size of the partial result (it is merged, not read as rows, so Arrow's columnar
 * layout brings nothing here).
 */
public final class FragmentStream {
  public static final String COLUMN = "fragment_response";

  public static final int MAX_CHUNK_BYTES = 1 << 20;

  private FragmentStream() {}
}
