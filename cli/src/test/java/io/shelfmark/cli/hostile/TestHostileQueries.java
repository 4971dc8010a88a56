package io.shelfmark.cli.hostile;

import static io.shelfmark.cli.hostile.HostileNode.TABLE;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.cli.hostile.HostileNode.Reply;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, hostile SQL over real HTTP (findings 1 and 7): each request ends with an answer or an
 * error naming the SQL position, and the node answers a normal query afterwards.
 */
class TestHostileQueries {
  private static final String COUNT = "SELECT COUNT(*) FROM " + TABLE + " WHERE ";

  @TempDir static Path directory;
  private static HostileNode node;

  @BeforeAll
  static void start() throws Exception {
    node = HostileNode.start(directory);
  }

  @AfterAll
  static void stop() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void twoThousandOrsAreAnswered() throws Exception {
    String where =
        IntStream.range(0, 2_000)
            .mapToObj(i -> "quantity = " + i)
            .collect(Collectors.joining(" OR "));
    long matching = node.count(COUNT + where);
    assertThat(matching).isEqualTo(node.count(COUNT + "quantity BETWEEN 0 AND 1999"));
    node.assertHealthy();
  }

  @Test
  void threeThousandAndsAreAnswered() throws Exception {
    String where =
        IntStream.range(0, 3_000)
            .mapToObj(i -> "id <> " + (-1 - i))
            .collect(Collectors.joining(" AND "));
    assertThat(node.count(COUNT + where)).isEqualTo(HostileNode.ROWS);
    node.assertHealthy();
  }

  @Test
  void threeThousandNotsAreRefusedWithThePosition() throws Exception {
    assertRefusedWithPosition(
        COUNT + "NOT ".repeat(3_000) + "quantity = 1", "NOT nests deeper than the limit of 200");
  }

  @Test
  void threeThousandAdditionsAreRefusedWithThePosition() throws Exception {
    assertRefusedWithPosition(
        COUNT + "quantity" + " + 1".repeat(3_000) + " > 0",
        "expressions nest deeper than the limit of 200");
  }

  @Test
  void twoThousandNestedParenthesesAreRefusedAtTheFirstTooDeep() throws Exception {
    Reply reply = node.query(COUNT + "(".repeat(2_000) + "quantity = 1" + ")".repeat(2_000));
    assertThat(reply.message())
        .isEqualTo(
            "Cannot plan query at line 1, column "
                + (COUNT.length() + 201)
                + ": parentheses nest deeper than the limit of 200 (simplify the query, or raise"
                + " broker.sql.max-expression-depth in the cluster config)");
    node.assertHealthy();
  }

  @Test
  void orChainBeyondTheTermLimitIsRefusedWithThePosition() throws Exception {
    String where =
        IntStream.range(0, 6_000)
            .mapToObj(i -> "quantity = " + i)
            .collect(Collectors.joining(" OR "));
    assertRefusedWithPosition(COUNT + where, "the query joins more than 5000 terms with AND or OR");
  }

  @Test
  void inListBeyondTheLimitIsRefusedWithThePosition() throws Exception {
    String values =
        IntStream.range(0, 10_001).mapToObj(Integer::toString).collect(Collectors.joining(","));
    assertRefusedWithPosition(
        COUNT + "quantity NOT IN (" + values + ")",
        "the IN list has 10001 values, over the limit of 10000");
  }

  @Test
  void integerColumnAgainstNonIntegralDecimalIsAnswered() throws Exception {
    // Finding 7: a ClassCastException in the broker's partition pruning.
    assertThat(node.count(COUNT + "quantity > 50.5"))
        .isEqualTo(node.count(COUNT + "quantity >= 51"));
    assertThat(node.count(COUNT + "quantity IN (1.5, 2)"))
        .isEqualTo(node.count(COUNT + "quantity = 2"));
    node.assertHealthy();
  }

  @Test
  void hugeOffsetAnswersNoRows() throws Exception {
    Reply reply =
        node.query("SELECT id FROM " + TABLE + " ORDER BY id LIMIT 5 OFFSET 9223372036854775807");
    assertThat(reply.json().path("exceptions")).as(reply.body()).isEmpty();
    assertThat(reply.json().path("resultTable").path("rows")).isEmpty();
    Reply unordered = node.query("SELECT id FROM " + TABLE + " LIMIT 5 OFFSET 9223372036854775807");
    assertThat(unordered.json().path("exceptions")).as(unordered.body()).isEmpty();
    assertThat(unordered.json().path("resultTable").path("rows")).isEmpty();
    node.assertHealthy();
  }

  @Test
  void hugeTimeoutIsRefusedClearly() throws Exception {
    Reply reply =
        node.query(
            "SELECT COUNT(*) FROM " + TABLE, "\"queryOptions\": \"timeoutMs=9223372036854775807\"");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.message())
        .isEqualTo(
            "Cannot use queryOptions timeoutMs=9223372036854775807: it must be a positive number"
                + " of milliseconds, at most 86400000 (one day)");
    node.assertHealthy();
  }

  @Test
  void storageFailureNamesNoLocalPathOrEndpointButARequestId() throws Exception {
    node.addTable("broken");
    node.deleteDataFiles("broken");
    Reply reply =
        node.query("SELECT id, amount, category FROM hostile.broken WHERE amount > -1 LIMIT 300");
    String message = reply.message();
    assertThat(reply.json().path("exceptions")).as(reply.body()).isNotEmpty();
    assertThat(message)
        .contains("(request id ")
        .doesNotContain(node.s3Directory().toString())
        .doesNotContainPattern("https?://");
    node.assertHealthy();
  }

  private void assertRefusedWithPosition(String sql, String detail) throws Exception {
    Reply reply = node.query(sql);
    assertThat(reply.status()).isEqualTo(200); // Pinot's shape: query errors in the body
    assertThat(reply.json().path("exceptions").path(0).path("errorCode").asInt())
        .as(reply.body())
        .isEqualTo(150);
    assertThat(reply.message())
        .matches("Cannot plan query at line 1, column \\d+: .*")
        .contains(detail);
    node.assertHealthy();
  }
}
