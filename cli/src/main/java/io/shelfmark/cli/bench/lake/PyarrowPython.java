package io.shelfmark.cli.bench.lake;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A Python interpreter that can import pyarrow, for {@code bench --writer pyarrow}, and the pyarrow
 * version it has.
 *
 * <p>Found in this order, the first that imports pyarrow winning: the {@code --python} option
 * (which must work: naming one that cannot import pyarrow is an error, not a fall-through), the
 * {@value #ENV} environment variable (likewise), the venv bin/test builds ({@code
 * .shelfmark-build/pyenv} under the working directory, then under the checkout this class was
 * loaded from), then {@code python3} on the PATH.
 *
 * @param executable the interpreter
 * @param pyarrowVersion {@code pyarrow.__version__} as it printed it
 */
public record PyarrowPython(Path executable, String pyarrowVersion) {
  public static final String ENV = "SHELFMARK_PYTHON";
  static final Path VENV_PYTHON = Path.of(".shelfmark-build", "pyenv", "bin", "python");

  public PyarrowPython {
    requireNonNull(executable, "executable is null");
    requireNonNull(pyarrowVersion, "pyarrowVersion is null");
  }

  /**
   * Finds a Python with pyarrow.
   *
   * @param option the {@code --python} option's value, if given
   * @param environment the process environment (for {@value #ENV})
   * @throws IOException naming what was tried and what to install when none works
   */
  public static PyarrowPython find(Optional<Path> option, Map<String, String> environment)
      throws IOException {
    requireNonNull(option, "option is null");
    requireNonNull(environment, "environment is null");
    if (option.isPresent()) {
      return required(option.get(), "--python");
    }
    String fromEnvironment = environment.getOrDefault(ENV, "");
    if (!fromEnvironment.isBlank()) {
      return required(Path.of(fromEnvironment), ENV);
    }
    Set<Path> candidates = new LinkedHashSet<>();
    candidates.add(Path.of("").toAbsolutePath().resolve(VENV_PYTHON));
    checkoutRoot().ifPresent(root -> candidates.add(root.resolve(VENV_PYTHON)));
    candidates.add(Path.of("python3"));
    List<String> tried = new ArrayList<>();
    for (Path candidate : candidates) {
      if (candidate.getNameCount() > 1 && !Files.isExecutable(candidate)) {
        tried.add(candidate + " (absent)");
        continue;
      }
      Probe probe = probe(candidate);
      if (probe.version().isPresent()) {
        return new PyarrowPython(candidate, probe.version().get());
      }
      tried.add(candidate + " (" + probe.problem() + ")");
    }
    throw new IOException(
        "Cannot write the benchmark table with pyarrow: no Python with pyarrow found (tried "
            + String.join(", ", tried)
            + "; install it with `pip install pyarrow==26.0.1`, or run bin/test, which builds"
            + " .shelfmark-build/pyenv with it, or name a Python with --python or "
            + ENV
            + ")");
  }

  private static PyarrowPython required(Path python, String source) throws IOException {
    Probe probe = probe(python);
    if (probe.version().isEmpty()) {
      throw new IOException(
          "Cannot write the benchmark table with pyarrow: the Python named by "
              + source
              + ", "
              + python
              + ", cannot import pyarrow: "
              + probe.problem()
              + " (install it there with `pip install pyarrow==26.0.1`, or name another Python)");
    }
    return new PyarrowPython(python, probe.version().get());
  }

  private record Probe(Optional<String> version, String problem) {}

  private static Probe probe(Path python) throws InterruptedIOException {
    try {
      Process process =
          new ProcessBuilder(
                  python.toString(),
                  "-c",
                  "import pyarrow, pyarrow.parquet; print(pyarrow.__version__)")
              .redirectErrorStream(true)
              .start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), UTF_8).strip();
      if (!process.waitFor(1, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        return new Probe(Optional.empty(), "did not answer within a minute");
      }
      if (process.exitValue() != 0) {
        String[] lines = output.split("\n");
        return new Probe(Optional.empty(), lines[lines.length - 1]);
      }
      return new Probe(Optional.of(output), "");
    } catch (IOException e) {
      return new Probe(Optional.empty(), "cannot run: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Cannot probe " + python + " for pyarrow: interrupted");
    }
  }

  /**
   * The checkout this class runs from, when it runs from {@code <root>/cli/target/classes} (as
   * bin/shelfmark runs it), so that the venv is found from any working directory.
   */
  private static Optional<Path> checkoutRoot() {
    try {
      Path classes =
          Path.of(PyarrowPython.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path target = classes.getParent();
      if (classes.endsWith("classes") && target != null && target.endsWith("target")) {
        Path module = target.getParent();
        return module == null ? Optional.empty() : Optional.ofNullable(module.getParent());
      }
    } catch (URISyntaxException | RuntimeException e) {
      // A class loaded from somewhere unusual (a jar in a distribution): no checkout to look in.
    }
    return Optional.empty();
  }
}
