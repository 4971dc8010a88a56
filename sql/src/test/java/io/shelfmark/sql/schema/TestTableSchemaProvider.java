package io.shelfmark.sql.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.sql.type.PrimitiveType;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestTableSchemaProvider {
  private static BoundTable table(String name) {
    return new BoundTable(TableName.parse(name), List.of(new Column("x", PrimitiveType.INT, true)));
  }

  @Test
  void exactThenIgnoringCaseWhenUnambiguous() {
    BoundTable lower = table("obs.metrics");
    BoundTable other = table("obs.Other");
    TableSchemaProvider provider = TableSchemaProvider.of(lower, other);

    assertThat(provider.table(TableName.parse("obs.metrics"))).contains(lower);
    assertThat(provider.table(TableName.parse("OBS.METRICS"))).contains(lower);
    assertThat(provider.table(TableName.parse("obs.other"))).contains(other);
    assertThat(provider.table(TableName.parse("metrics"))).isEmpty();
    assertThat(provider.tableNames())
        .containsExactly(TableName.parse("obs.metrics"), TableName.parse("obs.Other"));
  }

  @Test
  void namespaceResolvesOnePartNamesFirst() {
    BoundTable metrics = table("obs.metrics");
    BoundTable bare = table("logs");
    TableSchemaProvider inObs =
        TableSchemaProvider.inNamespace(TableSchemaProvider.of(metrics, bare), "obs");

    assertThat(inObs.table(TableName.parse("metrics"))).contains(metrics);
    assertThat(inObs.table(TableName.parse("METRICS"))).contains(metrics);
    // Not in the namespace: the name as written.
    assertThat(inObs.table(TableName.parse("logs"))).contains(bare);
    // Qualified names are never re-qualified.
    assertThat(inObs.table(TableName.parse("obs.metrics"))).contains(metrics);
    assertThat(inObs.table(TableName.parse("other.metrics"))).isEmpty();
    assertThat(inObs.tableNames())
        .containsExactly(TableName.parse("obs.metrics"), TableName.parse("logs"));
  }

  @Test
  void ambiguousIgnoringCaseIsNoMatch() {
    BoundTable lower = table("obs.metrics");
    BoundTable upper = table("obs.Metrics");
    TableSchemaProvider provider = TableSchemaProvider.of(lower, upper);

    assertThat(provider.table(TableName.parse("obs.Metrics"))).contains(upper);
    assertThat(provider.table(TableName.parse("OBS.METRICS"))).isEmpty();
  }

  @Test
  void tablesValidateTheirColumns() {
    assertThatThrownBy(
            () ->
                new BoundTable(
                    TableName.of("t"),
                    List.of(
                        new Column("a", PrimitiveType.INT, true),
                        new Column("a", PrimitiveType.LONG, true))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("table t has two columns named a LONG");
    assertThatThrownBy(() -> new BoundTable(TableName.of("t"), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("table t has no columns");
    assertThatThrownBy(() -> TableName.parse("obs..metrics"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a table name part is empty: [obs, , metrics]");
  }
}
