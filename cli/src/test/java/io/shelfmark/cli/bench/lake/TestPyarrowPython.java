package io.shelfmark.cli.bench.lake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding the Python that {@code bench --writer pyarrow} runs: a named one must import pyarrow, and
 * its failure is reported with what to install. Uses small shell scripts standing in for a Python
 * (a real interpreter's answer to the probe is a version line or an ImportError).
 */
class TestPyarrowPython {
  @TempDir Path dir;

  @Test
  void aNamedPythonWithPyarrowIsUsed() throws IOException {
    Path python = script("fake-python", "echo 26.0.1");
    PyarrowPython found = PyarrowPython.find(Optional.of(python), Map.of());
    assertThat(found.executable()).isEqualTo(python);
    assertThat(found.pyarrowVersion()).isEqualTo("26.0.1");
  }

  @Test
  void theEnvironmentVariableIsUsedWhenNoOptionIs() throws IOException {
    Path python = script("env-python", "echo 25.0.0");
    PyarrowPython found =
        PyarrowPython.find(Optional.empty(), Map.of(PyarrowPython.ENV, python.toString()));
    assertThat(found.executable()).isEqualTo(python);
    assertThat(found.pyarrowVersion()).isEqualTo("25.0.0");
  }

  @Test
  void aNamedPythonWithoutPyarrowIsRefusedNamingWhatToInstall() throws IOException {
    Path python =
        script(
            "bare-python",
            "echo 'ModuleNotFoundError: No module named '\"'\"'pyarrow'\"'\"'' >&2; exit 1");
    assertThatThrownBy(() -> PyarrowPython.find(Optional.of(python), Map.of()))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "Cannot write the benchmark table with pyarrow: the Python named by --python, "
                + python
                + ", cannot import pyarrow: ModuleNotFoundError: No module named 'pyarrow'"
                + " (install it there with `pip install pyarrow==26.0.1`, or name another"
                + " Python)");
  }

  @Test
  void aPythonForPyicebergReportsBothVersions() throws IOException {
    Path python = script("iceberg-python", "echo 26.0.1 0.12.0");
    PyarrowPython found =
        PyarrowPython.find(Optional.of(python), Map.of(), PyarrowPython.Module.PYICEBERG);
    assertThat(found.pyarrowVersion()).isEqualTo("26.0.1");
    assertThat(found.moduleVersion()).isEqualTo("0.12.0");
  }

  @Test
  void aNamedPythonWithoutPyicebergIsRefusedNamingWhatToInstall() throws IOException {
    Path python =
        script(
            "arrow-only-python",
            "echo 'ModuleNotFoundError: No module named '\"'\"'pyiceberg'\"'\"'' >&2; exit 1");
    assertThatThrownBy(
            () -> PyarrowPython.find(Optional.of(python), Map.of(), PyarrowPython.Module.PYICEBERG))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "Cannot write the benchmark table with pyiceberg: the Python named by --python, "
                + python
                + ", cannot import pyiceberg: ModuleNotFoundError: No module named 'pyiceberg'"
                + " (install it there with `pip install 'pyiceberg[sql-sqlite]==0.12.0'"
                + " pyarrow==26.0.1`, or name another Python)");
  }

  @Test
  void aMissingExecutableIsRefused() {
    Path python = dir.resolve("no-such-python");
    assertThatThrownBy(
            () ->
                PyarrowPython.find(Optional.empty(), Map.of(PyarrowPython.ENV, python.toString())))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith(
            "Cannot write the benchmark table with pyarrow: the Python named by SHELFMARK_PYTHON, "
                + python
                + ", cannot import pyarrow: cannot run: ")
        .hasMessageEndingWith(
            "(install it there with `pip install pyarrow==26.0.1`, or name another Python)");
  }

  private Path script(String name, String body) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }
}
