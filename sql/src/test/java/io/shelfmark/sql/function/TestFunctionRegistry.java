package io.shelfmark.sql.function;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TestFunctionRegistry {
  @Test
  void lookupIgnoresCaseAndKnowsEverySpelling() {
    FunctionRegistry registry = FunctionRegistry.standard();

    assertThat(registry.lookup("dateTrunc")).contains(BuiltinFunction.DATE_TRUNC);
    assertThat(registry.lookup("DATE_TRUNC")).contains(BuiltinFunction.DATE_TRUNC);
    assertThat(registry.lookup("DISTINCTCOUNTHLL")).contains(BuiltinFunction.DISTINCT_COUNT_HLL);
    assertThat(registry.lookup("approx_count_distinct"))
        .contains(BuiltinFunction.DISTINCT_COUNT_HLL);
    assertThat(registry.lookup("upper")).isEmpty();
    assertThat(registry.names())
        .containsExactly(
            "approx_count_distinct",
            "avg",
            "count",
            "date_trunc",
            "datetimeconvert",
            "datetrunc",
            "distinctcount",
            "distinctcounthll",
            "element_at",
            "fromdatetime",
            "fromepochdays",
            "fromepochhours",
            "fromepochminutes",
            "fromepochseconds",
            "max",
            "min",
            "round",
            "sum",
            "todatetime",
            "toepochdays",
            "toepochdaysbucket",
            "toepochdaysrounded",
            "toepochhours",
            "toepochhoursbucket",
            "toepochhoursrounded",
            "toepochminutes",
            "toepochminutesbucket",
            "toepochminutesrounded",
            "toepochseconds",
            "toepochsecondsbucket",
            "toepochsecondsrounded");
  }

  @Test
  void aRegistryCanWithholdFunctions() {
    FunctionRegistry registry = FunctionRegistry.of(List.of(BuiltinFunction.COUNT));

    assertThat(registry.lookup("count")).contains(BuiltinFunction.COUNT);
    assertThat(registry.lookup("sum")).isEmpty();
    assertThat(FunctionRegistry.of(List.of()).names()).isEmpty();
  }
}
