package io.shelfmark.cli.command;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.cli.Shelfmark;
import io.shelfmark.cli.client.BrokerClientException;
import io.shelfmark.cli.client.BrokerCredentials;
import io.shelfmark.config.security.PasswordHash;
import io.shelfmark.config.security.TokenHash;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class TestAuthCommand {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(Object command, String... args) {
    CommandLine commandLine = command == null ? Shelfmark.commandLine() : new CommandLine(command);
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine.execute(args);
  }

  @Test
  void hashPasswordReadsStandardInputAndPrintsAVerifiableHash() {
    AuthCommand.HashPassword command = new AuthCommand.HashPassword();
    command.console = null;
    command.in = new ByteArrayInputStream("correct horse battery\n".getBytes(UTF_8));
    assertThat(run(command, "--iterations", "10000")).isZero();
    String printed = out.toString().strip();
    assertThat(printed).startsWith("pbkdf2-sha256$10000$").doesNotContain("correct horse");
    assertThat(PasswordHash.parse(printed).matches("correct horse battery".toCharArray())).isTrue();
  }

  @Test
  void hashPasswordRefusesAnEmptyPasswordAndTooFewIterations() {
    AuthCommand.HashPassword empty = new AuthCommand.HashPassword();
    empty.console = null;
    empty.in = new ByteArrayInputStream(new byte[0]);
    assertThat(run(empty, "--iterations", "10000")).isNotZero();
    AuthCommand.HashPassword cheap = new AuthCommand.HashPassword();
    cheap.console = null;
    cheap.in = new ByteArrayInputStream("pw\n".getBytes(UTF_8));
    assertThat(run(cheap, "--iterations", "5")).isNotZero();
  }

  @Test
  void hashTokenGeneratesATokenAndItsHash() {
    assertThat(run(new AuthCommand.HashToken(), "--generate")).isZero();
    String[] lines = out.toString().strip().split("\\R");
    String token = lines[0].substring("token: ".length());
    String hash = lines[1].substring("token-hash: ".length());
    assertThat(TokenHash.parse(hash).matches(token)).isTrue();

    AuthCommand.HashToken read = new AuthCommand.HashToken();
    read.in = new ByteArrayInputStream((token + "\n").getBytes(UTF_8));
    out.getBuffer().setLength(0);
    assertThat(run(read)).isZero();
    assertThat(out.toString().strip()).isEqualTo(hash);
  }

  @Test
  void everyAuthCommandHasHelp() {
    for (String[] args :
        new String[][] {
          {"auth", "--help"}, {"auth", "hash-password", "--help"}, {"auth", "hash-token", "--help"}
        }) {
      out.getBuffer().setLength(0);
      assertThat(run(null, args)).isZero();
      assertThat(out.toString())
          .startsWith("Usage: shelfmark " + String.join(" ", args).replace(" --help", ""));
    }
  }

  @Test
  void configCheckNamesSecurityViolationsWithoutShowingHashes(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("cluster.yaml");
    Files.writeString(
        file,
        """
        roles: [broker, server]
        host: 0.0.0.0
        segment-store: /s
        security:
          users:
            bob:
              password-hash: my-actual-password
              roles: [root]
          tls:
            certificate-file: /nonexistent/cert.pem
        """,
        UTF_8);
    assertThat(run(null, "config", "check", file.toString())).isEqualTo(1);
    assertThat(err.toString())
        .contains("security.users.bob.password-hash")
        .contains("security.users.bob.roles")
        .contains("security.tls.certificate-file")
        .contains("security.tls.private-key-file")
        .doesNotContain("my-actual-password")
        .doesNotContain("\tat ");
  }

  @Test
  void credentialsComeFromOptionsAndEnvironment() {
    assertThat(BrokerCredentials.resolve(Optional.empty(), Optional.empty(), Map.of()))
        .isEqualTo(BrokerCredentials.NONE);
    assertThat(
            BrokerCredentials.resolve(
                Optional.of("ann"), Optional.empty(), Map.of("SHELFMARK_PASSWORD", "pw")))
        .isEqualTo(new BrokerCredentials.Basic("ann", "pw"));
    assertThat(
            BrokerCredentials.resolve(
                Optional.empty(), Optional.empty(), Map.of("SHELFMARK_TOKEN", "tok")))
        .isEqualTo(new BrokerCredentials.Bearer("tok"));
    assertThat(new BrokerCredentials.Basic("ann", "pw").toString()).doesNotContain("pw]");
    assertThatThrownBy(
            () -> BrokerCredentials.resolve(Optional.of("ann"), Optional.empty(), Map.of()))
        .isInstanceOf(BrokerClientException.class)
        .hasMessageContaining("set SHELFMARK_PASSWORD");
  }
}
