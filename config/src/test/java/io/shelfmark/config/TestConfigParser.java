package io.shelfmark.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import org.junit.jupiter.api.Test;

class TestConfigParser {
  @Test
  void malformedInputAlwaysBecomesOneConfigViolation() {
    List<String> inputs =
        List.of(
            "roles: [server",
            "host: \"unclosed\n",
            "\troles: [server]\n",
            "a: &x [1]\nb: *y\n",
            "? [complex, key]\n: value\n",
            "roles: [server]\n---\nroles: [broker]\n",
            "%YAML 9.9\n---\nroles: [server]\n",
            "key: value: other\n",
            "\u0000\u0001\u0002",
            "{\"a\": 1,}",
            "]");
    for (String input : inputs) {
      for (ConfigFormat format : ConfigFormat.values()) {
        Throwable thrown =
            catchThrowable(
                () -> ConfigLoader.withoutEnvironment().parseCluster(input, format, "bad"));
        assertThat(thrown).as("%s as %s", input, format).isInstanceOf(ConfigException.class);
        ConfigException e = (ConfigException) thrown;
        assertThat(e.getMessage())
            .as("%s as %s", input, format)
            .startsWith("bad: ")
            .doesNotContain("com.fasterxml")
            .doesNotContain("org.yaml");
      }
    }
  }

  @Test
  void refusesSecondDocument() {
    Throwable thrown =
        catchThrowable(
            () ->
                ConfigLoader.withoutEnvironment()
                    .parseCluster(
                        "roles: [server]\nsegment-store: /s\n---\nroles: [broker]\n",
                        ConfigFormat.YAML,
                        "cluster.yaml"));
    assertThat(thrown)
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "cluster.yaml: Cannot parse YAML at line 4, column 1: more than one document (put the"
                + " whole config in one document)");
    assertThat(
            catchThrowable(
                () ->
                    ConfigLoader.parseTable(
                        "{\"table\": {\"namespace\": \"a\", \"name\": \"b\"}} {}",
                        ConfigFormat.JSON,
                        "t.json")))
        .hasMessage(
            "t.json: Cannot parse JSON at line 1, column 44: more than one document (put the"
                + " whole config in one document)");
  }

  @Test
  void reportsProblemAndContextOfYamlErrors() {
    assertThat(
            catchThrowable(
                () ->
                    ConfigLoader.withoutEnvironment()
                        .parseCluster("roles: [server", ConfigFormat.YAML, "cluster.yaml")))
        .hasMessage(
            "cluster.yaml: Cannot parse YAML at line 1, column 15: expected ',' or ']', but got"
                + " <stream end>, while parsing a flow sequence (fix the syntax there)");
  }

  @Test
  void describesParserInternalsInWords() {
    assertThat(
            ConfigParser.humanize(
                "Expected a field name (Scalar value in YAML), got this instead:"
                    + " <org.yaml.snakeyaml.events.SequenceStartEvent(anchor=null, tag=null,"
                    + " implicit=true)>"))
        .isEqualTo(
            "Expected a field name (Scalar value in YAML), got this instead: a sequence start");
    assertThat(ConfigParser.humanize("bad token in com.fasterxml.jackson.core.JsonToken"))
        .isEqualTo("bad token in JsonToken");
  }

  @Test
  void reportsUnclosedSequenceWhereItEnds() {
    Throwable thrown =
        catchThrowable(
            () ->
                ConfigLoader.parseTable(
                    "table:\n  namespace: obs\ncolumns: {metric: {indexes: [inverted}}\n",
                    ConfigFormat.YAML,
                    "metrics.yaml"));
    assertThat(thrown)
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("metrics.yaml: Cannot parse YAML at line 3, column ");
    assertThat(((ConfigException) thrown).violations()).hasSize(1);
    assertThat(((ConfigException) thrown).violations().getFirst().key()).isEmpty();
  }
}
