package io.shelfmark.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.security.TablePattern;
import io.shelfmark.config.security.UserConfig;
import io.shelfmark.config.security.UserRole;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestSecurityConfigLoader {
  private static final String PASSWORD_HASH =
      "pbkdf2-sha256$10000$MDEyMzQ1Njc4OWFiY2RlZg==$TI2grtvV1HW5nz2rBY4tctlrmOj5bZs0dw9j8NHpRRc=";
  private static final String TOKEN_HASH =
      "sha256$f616cc21e93cfa0340bbe511ba5170df9344bb35aaa5aeb4b8bcfb88d543bfc1";
  private static final String BASE = "roles: [broker, server]\nsegment-store: /s\n";

  @TempDir Path directory;

  @Test
  void noSectionKeepsTodaysBehaviour() {
    ClusterConfig config = parse(BASE);
    assertThat(config.authenticationConfigured()).isFalse();
    assertThat(config.security().tls()).isEmpty();
    assertThat(config.host()).isEqualTo("127.0.0.1");
  }

  @Test
  void readsUsersWithDefaults() {
    ClusterConfig config =
        parse(
            BASE
                + """
                security:
                  users:
                    alice:
                      password-hash: %s
                      roles: [admin]
                    grafana:
                      token-hash: %s
                      roles: query
                      tables: [obs.*, web.pages]
                """
                    .formatted(PASSWORD_HASH, TOKEN_HASH));
    assertThat(config.authenticationConfigured()).isTrue();
    UserConfig alice = config.security().user("alice").orElseThrow();
    assertThat(alice.has(UserRole.ADMIN)).isTrue();
    assertThat(alice.has(UserRole.QUERY)).isTrue();
    assertThat(alice.tables()).containsExactly(TablePattern.ALL);
    assertThat(alice.passwordHash().orElseThrow().matches("correct horse".toCharArray())).isTrue();
    UserConfig grafana = config.security().user("grafana").orElseThrow();
    assertThat(grafana.has(UserRole.ADMIN)).isFalse();
    assertThat(grafana.canRead("obs.metrics")).isTrue();
    assertThat(grafana.canRead("web.pages")).isTrue();
    assertThat(grafana.canRead("web.users")).isFalse();
  }

  @Test
  void reportsEveryUserViolationByKeyPathWithoutShowingHashes() {
    ConfigException e =
        fail(
            BASE
                + """
                security:
                  users:
                    bob:
                      password-hash: hunter2
                      roles: [query, superuser]
                    carol:
                      roles: [query]
                    "dave:x":
                      token-hash: sha256$abc
                      roles: [query]
                      tables: [obs]
                """);
    assertThat(e.violations())
        .extracting(Violation::key)
        .containsExactly(
            "security.users.bob.password-hash",
            "security.users.bob.roles",
            "security.users.carol.password-hash",
            "security.users.dave:x",
            "security.users.dave:x.token-hash",
            "security.users.dave:x.tables");
    assertThat(e.getMessage())
        .doesNotContain("hunter2")
        .doesNotContain("sha256$abc")
        .contains("Cannot use security.users.bob.password-hash: \"****\" (expected pbkdf2-sha256$")
        .contains("unknown superuser; allowed: query, admin")
        .contains("Missing key security.users.carol.password-hash (or token-hash")
        .contains("\"obs\" is not a table pattern");
  }

  @Test
  void refusesTheWarmUpUsersName() {
    ConfigException e =
        fail(
            BASE
                + "security:\n  users:\n    shelfmark-warmup: {token-hash: %s, roles: [query]}\n"
                    .formatted(TOKEN_HASH));
    assertThat(e.violations())
        .extracting(Violation::key)
        .containsExactly("security.users.shelfmark-warmup");
  }

  @Test
  void refusesOneTokenForTwoUsers() {
    ConfigException e =
        fail(
            BASE
                + """
                security:
                  users:
                    a: {token-hash: %s, roles: [query]}
                    b: {token-hash: %s, roles: [query]}
                """
                    .formatted(TOKEN_HASH, TOKEN_HASH));
    assertThat(e.violations())
        .extracting(Violation::message)
        .containsExactly(
            "Cannot use security.users.b.token-hash: user a has the same token (give each user a"
                + " token of their own)");
  }

  @Test
  void readsTlsAndReportsHalfConfiguredOrMissingFiles() throws Exception {
    Path certificate = Files.writeString(directory.resolve("cert.pem"), "x");
    Path key = Files.writeString(directory.resolve("key.pem"), "x");
    ClusterConfig config =
        parse(
            BASE
                + "security:\n  tls:\n    certificate-file: %s\n    private-key-file: %s\n"
                    .formatted(certificate, key));
    assertThat(config.security().tls().orElseThrow().certificateFile()).isEqualTo(certificate);

    ConfigException half =
        fail(BASE + "security:\n  tls:\n    certificate-file: %s\n".formatted(certificate));
    assertThat(half.violations())
        .extracting(Violation::message)
        .containsExactly(
            "Missing key security.tls.private-key-file (TLS needs both"
                + " security.tls.certificate-file and security.tls.private-key-file; set both, or"
                + " neither for plain HTTP)");

    ConfigException missing =
        fail(
            BASE
                + """
                security:
                  tls:
                    certificate-file: %s
                    private-key-file: %s
                    private-key-password: open-sesame
                """
                    .formatted(directory.resolve("nope.pem"), key));
    assertThat(missing.violations())
        .extracting(Violation::key)
        .containsExactly("security.tls.certificate-file");
    assertThat(missing.getMessage())
        .contains("no readable file there")
        .doesNotContain("open-sesame");

    ConfigException passwordAlone =
        fail(BASE + "security:\n  tls:\n    private-key-password: open-sesame\n");
    assertThat(passwordAlone.violations())
        .extracting(Violation::message)
        .containsExactly(
            "Cannot use security.tls.private-key-password: \"****\" (only with"
                + " security.tls.private-key-file)");
  }

  @Test
  void refusesRemoteBindWithoutAuthenticationUnlessOverridden() {
    ConfigException e = fail(BASE + "host: 0.0.0.0\n");
    assertThat(e.violations()).extracting(Violation::key).containsExactly("host");
    assertThat(e.getMessage())
        .contains("Cannot use host: \"0.0.0.0\" (without authentication")
        .contains("broker.allow-unauthenticated-remote-access: true");

    assertThat(
            parse(BASE + "host: 0.0.0.0\nbroker:\n  allow-unauthenticated-remote-access: true\n")
                .host())
        .isEqualTo("0.0.0.0");
    assertThat(
            parse(
                    BASE
                        + "host: 10.0.0.5\nsecurity:\n  users:\n    a: {token-hash: %s, roles: [query]}\n"
                            .formatted(TOKEN_HASH))
                .authenticationConfigured())
        .isTrue();
    assertThat(parse(BASE + "host: localhost\n").authenticationConfigured()).isFalse();
  }

  @Test
  void programmaticConfigsFollowTheSameRule() {
    assertThatThrownBy(
            () ->
                ClusterConfig.builder()
                    .roles(Role.BROKER)
                    .segmentStore("/s")
                    .host("0.0.0.0")
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot use host: 0.0.0.0 (without authentication");
    assertThat(
            ClusterConfig.builder()
                .roles(Role.BROKER)
                .segmentStore("/s")
                .host("0.0.0.0")
                .allowUnauthenticatedRemoteAccess(true)
                .build()
                .host())
        .isEqualTo("0.0.0.0");
  }

  @Test
  void environmentSetsTheOverrideAndNamesTheVariable() {
    Map<String, String> environment =
        Map.of(
            "SHELFMARK_HOST", "0.0.0.0",
            "SHELFMARK_BROKER_ALLOW_UNAUTHENTICATED_REMOTE_ACCESS", "true");
    ClusterConfig config =
        new ConfigLoader(environment).parseCluster(BASE, ConfigFormat.YAML, "cluster.yaml");
    assertThat(config.allowUnauthenticatedRemoteAccess()).isTrue();

    ConfigException e =
        catchConfig(
            () ->
                new ConfigLoader(Map.of("SHELFMARK_HOST", "0.0.0.0"))
                    .parseCluster(BASE, ConfigFormat.YAML, "cluster.yaml"));
    assertThat(e.violations())
        .extracting(Violation::message)
        .first()
        .asString()
        .startsWith("Cannot use host from SHELFMARK_HOST: \"0.0.0.0\" (without authentication");
  }

  private static ClusterConfig parse(String yaml) {
    return ConfigLoader.withoutEnvironment().parseCluster(yaml, ConfigFormat.YAML, "cluster.yaml");
  }

  private static ConfigException fail(String yaml) {
    return catchConfig(() -> parse(yaml));
  }

  private static ConfigException catchConfig(Runnable load) {
    try {
      load.run();
    } catch (ConfigException e) {
      return e;
    }
    throw new AssertionError("Expected a ConfigException");
  }
}
