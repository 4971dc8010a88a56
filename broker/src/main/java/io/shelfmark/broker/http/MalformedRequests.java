package io.shelfmark.broker.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;

/**
 * Answers requests that cannot be routed because they are not well-formed HTTP, before the request
 * handler sees them: netty's decoder marks such a request with a failed {@link DecoderResult} (and
 * a placeholder URI, which routing would answer with a misleading 404), and a path with a broken
 * percent-escape cannot be decoded. Each gets its own status and a JSON message; the connection is
 * then closed.
 */
final class MalformedRequests extends ChannelInboundHandlerAdapter {
  /** The longest request line (method, URL, version) read; SQL goes in the body. */
  static final int MAX_REQUEST_LINE_BYTES = 8 * 1024;

  /** The most bytes of headers read, all headers together. */
  static final int MAX_HEADER_BYTES = 16 * 1024;

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (!(msg instanceof FullHttpRequest request)) {
      super.channelRead(ctx, msg);
      return;
    }
    String refusal = null;
    HttpResponseStatus status = HttpResponseStatus.BAD_REQUEST;
    DecoderResult result = request.decoderResult();
    if (result.isFailure()) {
      Throwable cause = result.cause();
      if (cause instanceof TooLongHttpLineException) {
        status = HttpResponseStatus.REQUEST_URI_TOO_LONG;
        refusal =
            "Cannot read request: the request line is longer than "
                + MAX_REQUEST_LINE_BYTES
                + " bytes (send SQL in the body of POST /query/sql, not in the URL)";
      } else if (cause instanceof TooLongHttpHeaderException) {
        status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        refusal =
            "Cannot read request: its headers are larger than "
                + MAX_HEADER_BYTES
                + " bytes, the header limit (send fewer or shorter headers)";
      } else if (cause instanceof TooLongFrameException) {
        refusal = "Cannot read request: a part of it is too long (" + cause.getMessage() + ")";
      } else {
        refusal =
            "Cannot read request: it is not well-formed HTTP/1.1 ("
                + (cause == null ? "unknown cause" : cause.getMessage())
                + ")";
      }
    } else {
      refusal = undecodablePath(request.uri());
    }
    if (refusal == null) {
      super.channelRead(ctx, msg);
      return;
    }
    ReferenceCountUtil.release(msg);
    HttpErrors.sendAndClose(ctx, status, refusal);
  }

  private static String undecodablePath(String uri) {
    try {
      QueryStringDecoder decoder = new QueryStringDecoder(uri);
      decoder.path();
      decoder.parameters();
      return null;
    } catch (IllegalArgumentException e) {
      return "Cannot decode the request URL: "
          + e.getMessage()
          + " (write '%' as %25; an escape is '%' and two hexadecimal digits)";
    }
  }

  /** Answers a body beyond the limit with 413 and a JSON message (netty's own has no body). */
  static final class Aggregator extends HttpObjectAggregator {
    Aggregator(int maxContentLength) {
      super(maxContentLength);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
      // The aggregator releases the message after this returns.
      HttpErrors.sendAndClose(
          ctx,
          HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
          "Cannot read request: the body is larger than "
              + maxContentLength()
              + " bytes, the limit (SQL text is limited by broker.sql.max-length)");
    }
  }
}
