package io.shelfmark.cli.command;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.shelfmark.config.security.PasswordHash;
import io.shelfmark.config.security.TokenHash;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shelfmark auth}: makes the hashes that {@code security.users} holds. */
@Command(
    name = "auth",
    mixinStandardHelpOptions = true,
    description = "Make password and token hashes for security.users (see docs/security.md).",
    subcommands = {AuthCommand.HashPassword.class, AuthCommand.HashToken.class})
public final class AuthCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code shelfmark auth hash-password}: reads a password, prints its PBKDF2 hash. */
  @Command(
      name = "hash-password",
      mixinStandardHelpOptions = true,
      description = {
        "Read a password (typed twice without echo on a terminal, else the first line of standard"
            + " input) and print its hash for security.users.<name>.password-hash.",
        "Example: bin/shelfmark auth hash-password",
        "         printf '%s\\n' \"$PASSWORD\" | bin/shelfmark auth hash-password"
      })
  public static final class HashPassword implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--iterations",
        description =
            "PBKDF2 iterations (default: ${DEFAULT-VALUE}; the broker remembers passwords it"
                + " verified, so this cost is paid once per user and password).")
    int iterations = PasswordHash.DEFAULT_ITERATIONS;

    /** Standard input, replaceable in tests. */
    InputStream in = System.in;

    /** The terminal, when there is one; tests set it to null. */
    Console console = System.console();

    @Override
    public Integer call() throws IOException {
      if (iterations < PasswordHash.MIN_ITERATIONS || iterations > PasswordHash.MAX_ITERATIONS) {
        throw new IllegalArgumentException(
            "Cannot use --iterations "
                + iterations
                + ": expected "
                + PasswordHash.MIN_ITERATIONS
                + " to "
                + PasswordHash.MAX_ITERATIONS);
      }
      char[] password = console != null && console.isTerminal() ? typed() : readLine(in);
      try {
        if (password.length == 0) {
          throw new IllegalArgumentException("Cannot hash an empty password (type one)");
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(PasswordHash.create(password, iterations).encoded());
        out.flush();
        return 0;
      } finally {
        Arrays.fill(password, '\0');
      }
    }

    private char[] typed() {
      char[] first = console.readPassword("Password: ");
      char[] second = console.readPassword("Again: ");
      if (first == null || second == null) {
        throw new IllegalArgumentException("Cannot hash a password: input ended");
      }
      try {
        if (!Arrays.equals(first, second)) {
          throw new IllegalArgumentException("Cannot hash the password: the two differ (retry)");
        }
        return first.clone();
      } finally {
        Arrays.fill(first, '\0');
        Arrays.fill(second, '\0');
      }
    }
  }

  /** {@code shelfmark auth hash-token}: reads or makes a bearer token, prints its hash. */
  @Command(
      name = "hash-token",
      mixinStandardHelpOptions = true,
      description = {
        "Print the hash of a bearer token for security.users.<name>.token-hash. With --generate,"
            + " make a new random token and print it too (give it to the client; only the hash"
            + " goes in the config). Without, read the token from the first line of standard"
            + " input.",
        "Example: bin/shelfmark auth hash-token --generate"
      })
  public static final class HashToken implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--generate", description = "Make a new random token (256 bits).")
    boolean generate;

    InputStream in = System.in;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      if (generate) {
        String token = TokenHash.newToken();
        out.println("token: " + token);
        out.println("token-hash: " + TokenHash.of(token).encoded());
      } else {
        String token = new String(readLine(in));
        if (token.length() < TokenHash.MIN_TOKEN_LENGTH) {
          throw new IllegalArgumentException(
              "Cannot hash a token of "
                  + token.length()
                  + " characters: at least "
                  + TokenHash.MIN_TOKEN_LENGTH
                  + " random characters (use --generate to make one)");
        }
        out.println(TokenHash.of(token).encoded());
      }
      out.flush();
      return 0;
    }
  }

  /** The first line of {@code in}, without its line end. */
  static char[] readLine(InputStream in) throws IOException {
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, UTF_8));
    String line = reader.readLine();
    return line == null ? new char[0] : line.toCharArray();
  }
}
