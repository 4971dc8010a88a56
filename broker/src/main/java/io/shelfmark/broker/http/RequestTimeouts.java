package io.shelfmark.broker.http;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The two timeouts of one connection, by what the connection is doing:
 *
 * <ul>
 *   <li>awaiting a request (no byte of the next one yet): closed after {@code
 *       broker.http.idle-timeout}; there is nothing to answer;
 *   <li>reading a request (its first byte arrived, its end has not): answered 408 and closed after
 *       {@code broker.http.request-read-timeout} (a client that sends headers one byte a minute,
 *       slowloris, holds a connection no longer than that);
 *   <li>answering (the request has arrived, the response is not written): no timeout here; the
 *       query's own deadline applies.
 * </ul>
 *
 * <p>Two handlers share the state: {@link #bytes()} goes before the HTTP codec and notices the
 * first byte of a request; this one goes after the codec and sees where requests end and responses
 * are written. All methods run on the channel's event loop.
 */
final class RequestTimeouts extends ChannelDuplexHandler {
  private enum State {
    AWAITING_REQUEST,
    READING_REQUEST,
    ANSWERING
  }

  private final long requestReadNanos;
  private final long idleNanos;
  private State state = State.AWAITING_REQUEST;
  private ChannelHandlerContext context;
  private ScheduledFuture<?> timer;

  RequestTimeouts(Duration requestReadTimeout, Duration idleTimeout) {
    this.requestReadNanos = requireNonNull(requestReadTimeout, "requestReadTimeout").toNanos();
    this.idleNanos = requireNonNull(idleTimeout, "idleTimeout").toNanos();
  }

  /** The handler to add before the HTTP codec. */
  ChannelInboundHandlerAdapter bytes() {
    return new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (state == State.AWAITING_REQUEST) {
          state = State.READING_REQUEST;
          schedule(requestReadNanos);
        }
        super.channelRead(ctx, msg);
      }
    };
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    context = ctx;
    if (ctx.channel().isActive()) {
      schedule(idleNanos);
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    if (timer == null) {
      schedule(idleNanos);
    }
    super.channelActive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (msg instanceof LastHttpContent && state == State.READING_REQUEST) {
      state = State.ANSWERING;
      cancel();
    }
    super.channelRead(ctx, msg);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise)
      throws Exception {
    if (msg instanceof LastHttpContent) {
      promise.addListener(
          written -> {
            if (written.isSuccess() && ctx.channel().isActive() && state == State.ANSWERING) {
              state = State.AWAITING_REQUEST;
              schedule(idleNanos);
            }
          });
    }
    super.write(ctx, msg, promise);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    cancel();
    super.channelInactive(ctx);
  }

  private void schedule(long nanos) {
    cancel();
    timer = context.executor().schedule(this::expired, nanos, TimeUnit.NANOSECONDS);
  }

  private void cancel() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  private void expired() {
    timer = null;
    if (!context.channel().isActive()) {
      return;
    }
    switch (state) {
      case AWAITING_REQUEST -> context.close();
      case READING_REQUEST -> {
        state = State.ANSWERING; // nothing more is read from this connection
        HttpErrors.sendAndClose(
            context,
            HttpResponseStatus.REQUEST_TIMEOUT,
            "Cannot read request: it did not arrive completely within "
                + TimeUnit.NANOSECONDS.toMillis(requestReadNanos)
                + " ms (send the whole request at once; broker.http.request-read-timeout)");
      }
      case ANSWERING -> {}
    }
  }
}
