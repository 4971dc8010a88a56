package io.shelfmark.broker.http;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.shelfmark.config.cluster.HttpConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the open connections of one HTTP server, in total and per client address, and refuses a
 * connection beyond {@code broker.http.max-connections} or {@code
 * broker.http.max-connections-per-client} with a 503 before closing it: one client holding
 * thousands of idle connections must not exhaust the process's file descriptors for everybody.
 *
 * <p>Thread safe: connections open and close on several event loops.
 */
final class ConnectionLimits {
  private final int maxConnections;
  private final int maxPerClient;
  private final AtomicInteger open = new AtomicInteger();
  private final Map<InetAddress, Integer> openByClient = new ConcurrentHashMap<>();

  ConnectionLimits(HttpConfig config) {
    this.maxConnections = config.maxConnections();
    this.maxPerClient = config.maxConnectionsPerClient();
  }

  /** The handler for one new connection; it must be the first in the pipeline. */
  ChannelInboundHandlerAdapter handler() {
    return new Limiter();
  }

  int open() {
    return open.get();
  }

  private final class Limiter extends ChannelInboundHandlerAdapter {
    private InetAddress client;
    private boolean counted;
    private boolean refused;

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
      client = address(ctx.channel().remoteAddress());
      String refusal = admit();
      if (refusal != null) {
        refused = true;
        refuse(ctx, refusal);
        return;
      }
      super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
      if (refused) {
        ReferenceCountUtil.release(msg); // a refused connection's request is never served
        return;
      }
      super.channelRead(ctx, msg);
    }

    private String admit() {
      if (open.incrementAndGet() > maxConnections) {
        open.decrementAndGet();
        return "Cannot accept connection: the broker has "
            + maxConnections
            + " open connections, its limit (retry later; broker.http.max-connections)";
      }
      int[] mine = new int[1];
      openByClient.compute(
          client,
          (address, count) -> {
            int current = count == null ? 0 : count;
            mine[0] = current + 1;
            return current < maxPerClient ? current + 1 : count;
          });
      if (mine[0] > maxPerClient) {
        open.decrementAndGet();
        return "Cannot accept connection: "
            + client.getHostAddress()
            + " has "
            + maxPerClient
            + " open connections, the limit per client (close idle connections or reuse them;"
            + " broker.http.max-connections-per-client)";
      }
      counted = true;
      return null;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      if (counted) {
        counted = false;
        open.decrementAndGet();
        openByClient.computeIfPresent(client, (address, count) -> count <= 1 ? null : count - 1);
      }
      super.channelInactive(ctx);
    }

    // Written as bytes: this handler sits before the HTTP codec, and no request has been read.
    private static void refuse(ChannelHandlerContext ctx, String message) {
      byte[] body = JsonBodies.write(Map.of("error", message));
      String head =
          "HTTP/1.1 503 Service Unavailable\r\n"
              + "content-type: application/json; charset=utf-8\r\n"
              + "content-length: "
              + body.length
              + "\r\nconnection: close\r\nretry-after: 1\r\n\r\n";
      ctx.writeAndFlush(Unpooled.wrappedBuffer(head.getBytes(UTF_8), body))
          .addListener(ChannelFutureListener.CLOSE);
    }
  }

  private static InetAddress address(SocketAddress remote) {
    return remote instanceof InetSocketAddress socket
        ? socket.getAddress()
        : InetAddress.getLoopbackAddress();
  }
}
