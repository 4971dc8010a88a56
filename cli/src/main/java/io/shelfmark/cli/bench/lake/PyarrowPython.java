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
 * A Python interpreter that can import pyarrow (and, for {@code bench --writer pyiceberg},
 * pyiceberg), for the bench's Python writers, and the versions it has.
 *
 * <p>Found in this order, the first that imports pyarrow winning: the {@code --python} option
 * (which must work: naming one that cannot import pyarrow is an error, not a fall-through), the
 * {@value #ENV} environment variable (likewise), the venv bin/test builds ({@code
 * .shelfmark-build/pyenv} under the working directory, then under the checkout this class was
 * loaded from), then {@code python3} on the PATH.
 *
 * @param executable the interpreter
 * @param pyarrowVersion {@code pyarrow.__version__} as it printed it
 * @param moduleVersion the {@code __version__} of the module the writer needs ({@link
 *     Module#name()}); pyarrow's again for {@link Module#PYARROW}
 */
public record PyarrowPython(Path executable, String pyarrowVersion, String moduleVersion) {
  public static final String ENV = "SHELFMARK_PYTHON";
  static final Path VENV_PYTHON = Path.of(".shelfmark-build", "pyenv", "bin", "python");

  public PyarrowPython {
    requireNonNull(executable, "executable is null");
    requireNonNull(pyarrowVersion, "pyarrowVersion is null");
    requireNonNull(moduleVersion, "moduleVersion is null");
  }

  /**
   * The Python module a writer runs on top of pyarrow, and what to install when it is missing.
   *
   * @param name the module's import name
   * @param install the pinned {@code pip install} arguments (those of
   *     cli/src/test/python/requirements.txt)
   */
  public record Module(String name, String install) {
    public static final Module PYARROW = new Module("pyarrow", "pyarrow==26.0.1");
    public static final Module PYICEBERG =
        new Module("pyiceberg", "'pyiceberg[sql-sqlite]==0.12.0' pyarrow==26.0.1");

    public Module {
      requireNonNull(name, "name is null");
      requireNonNull(install, "install is null");
    }
  }

  /** Finds a Python with pyarrow ({@link Module#PYARROW}). */
  public static PyarrowPython find(Optional<Path> option, Map<String, String> environment)
      throws IOException {
    return find(option, environment, Module.PYARROW);
  }

  /**
   * Finds a Python with pyarrow and {@code module}.
   *
   * @param option the {@code --python} option's value, if given
   * @param environment the process environment (for {@value #ENV})
   * @throws IOException naming what was tried and what to install when none works
   */
  public static PyarrowPython find(
      Optional<Path> option, Map<String, String> environment, Module module) throws IOException {
    requireNonNull(option, "option is null");
    requireNonNull(environment, "environment is null");
    requireNonNull(module, "module is null");
    if (option.isPresent()) {
      return required(option.get(), "--python", module);
    }
    String fromEnvironment = environment.getOrDefault(ENV, "");
    if (!fromEnvironment.isBlank()) {
      return required(Path.of(fromEnvironment), ENV, module);
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
      Probe probe = probe(candidate, module);
      if (probe.found()) {
        return probe.python(candidate);
      }
      tried.add(candidate + " (" + probe.problem() + ")");
    }
    throw new IOException(
        "Cannot write the benchmark table with "
            + module.name()
            + ": no Python with "
            + module.name()
            + " found (tried "
            + String.join(", ", tried)
            + "; install it with `pip install "
            + module.install()
            + "`, or run bin/test, which builds .shelfmark-build/pyenv with it, or name a Python"
            + " with --python or "
            + ENV
            + ")");
  }

  private static PyarrowPython required(Path python, String source, Module module)
      throws IOException {
    Probe probe = probe(python, module);
    if (!probe.found()) {
      throw new IOException(
          "Cannot write the benchmark table with "
              + module.name()
              + ": the Python named by "
              + source
              + ", "
              + python
              + ", cannot import "
              + module.name()
              + ": "
              + probe.problem()
              + " (install it there with `pip install "
              + module.install()
              + "`, or name another Python)");
    }
    return probe.python(python);
  }

  /** What the probe printed: pyarrow's version, then the module's when it is not pyarrow. */
  private record Probe(Optional<String> output, String problem) {
    boolean found() {
      return output.isPresent() && !output.get().isBlank();
    }

    PyarrowPython python(Path executable) {
      String[] versions = output.orElseThrow().trim().split("\\s+");
      return new PyarrowPython(
          executable, versions[0], versions.length > 1 ? versions[1] : versions[0]);
    }
  }

  private static Probe probe(Path python, Module module) throws InterruptedIOException {
    String code =
        module.equals(Module.PYARROW)
            ? "import pyarrow, pyarrow.parquet; print(pyarrow.__version__)"
            : "import pyarrow, pyarrow.parquet, %s; print(pyarrow.__version__, %s.__version__)"
                .formatted(module.name(), module.name());
    try {
      Process process =
          new ProcessBuilder(python.toString(), "-c", code).redirectErrorStream(true).start();
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
