package io.shelfmark.cli.deploy;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline validation of deploy/terraform (terraform validate needs the AWS provider, which
 * cannot be downloaded in CI): src/test/python/terraform_check.py parses every module with
 * python-hcl2 and reports violations of the rules its docstring lists; {@code terraform fmt -check}
 * runs when a terraform binary is on PATH. A seeded copy proves each rule can fail.
 */
class TestTerraformModules {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path CHECK = Path.of("src/test/python/terraform_check.py").toAbsolutePath();
  private static final Path TERRAFORM = Path.of("../deploy/terraform").toAbsolutePath().normalize();
  private static final Path BOOTSTRAP =
      Path.of("../deploy/bootstrap/shelfmark-bootstrap.sh").toAbsolutePath().normalize();
  private static final int USER_DATA_LIMIT = 16384;

  @TempDir static Path dir;
  private static String python;

  @BeforeAll
  static void findPython() {
    python = System.getProperty("shelfmark.python", "");
    if (python.isEmpty() || !Files.isExecutable(Path.of(python))) {
      throw new IllegalStateException(
          "Cannot run the Terraform checks: no Python with python-hcl2"
              + (python.isEmpty() ? "" : " at " + python)
              + " (run bin/test, which builds .shelfmark-build/pyenv from"
              + " cli/src/test/python/requirements.txt and passes -Dshelfmark.python to Maven)");
    }
  }

  @Test
  void modulesPassEveryOfflineCheck() throws Exception {
    JsonNode report = check(TERRAFORM, Optional.empty());
    assertThat(violations(report)).isEmpty();
    JsonNode checked = report.get("checked");
    // root + network, iam, coordinator, servers; non-zero counts show the rules saw something.
    assertThat(checked.get("modules").asInt()).isEqualTo(5);
    assertThat(checked.get("module_calls").asInt()).isEqualTo(4);
    assertThat(checked.get("instance_type_variables").asInt()).isEqualTo(2);
    assertThat(checked.get("ami_lookups").asInt()).isEqualTo(1);
    assertThat(checked.get("ingress_rules").asInt()).isGreaterThanOrEqualTo(4);
    assertThat(checked.get("resources").asInt()).isGreaterThanOrEqualTo(25);
    assertThat(checked.get("variables").asInt()).isGreaterThanOrEqualTo(80);
    assertThat(checked.get("bootstrap_settings").asInt()).isGreaterThanOrEqualTo(20);
  }

  @Test
  void userDataWithTheBootstrapScriptFitsEc2Limit() throws Exception {
    Assumptions.assumeTrue(
        Files.isRegularFile(BOOTSTRAP),
        "Skipped the user data size check: "
            + BOOTSTRAP
            + " is absent (the bootstrap script comes with the distribution work; the instances"
            + " also check the rendered size at plan time)");
    JsonNode report = check(TERRAFORM, Optional.of(BOOTSTRAP));
    assertThat(violations(report)).isEmpty();
    JsonNode userData = report.get("user_data");
    assertThat(userData.get("script_bytes").asLong()).isEqualTo(Files.size(BOOTSTRAP));
    assertThat(userData.get("gzip_bytes").asLong())
        .isPositive()
        .isLessThan(userData.get("raw_bytes").asLong());
    assertThat(userData.get("bound_bytes").asLong())
        .isEqualTo(
            userData.get("gzip_bytes").asLong() + userData.get("env_allowance_bytes").asLong())
        .isLessThanOrEqualTo(USER_DATA_LIMIT);
  }

  @Test
  void seededViolationsAreReported() throws Exception {
    Path copy = copyOf(TERRAFORM, dir.resolve("seeded"));
    Path network = copy.resolve("modules/network");
    // An internal port (ZooKeeper) opened to the world, and a security group without tags.
    append(
        network.resolve("security.tf"),
        """
        resource "aws_vpc_security_group_ingress_rule" "zookeeper_world" {
          security_group_id = aws_security_group.cluster.id
          cidr_ipv4         = "0.0.0.0/0"
          ip_protocol       = "tcp"
          from_port         = var.internal_ports["zookeeper"]
          to_port           = var.internal_ports["zookeeper"]
          tags              = { Name = "bad" }
        }

        resource "aws_security_group" "untagged" {
          name   = "untagged"
          vpc_id = local.vpc_id
        }

        resource "aws_lb" "unknown" {
          name = "unknown"
        }
        """);
    // A variable without a description, an x86 coordinator, an x86 AMI.
    append(copy.resolve("variables.tf"), "variable \"undocumented\" {\n  type = string\n}\n");
    replace(
        copy.resolve("variables.tf"), "default     = \"m7g.xlarge\"", "default = \"m7i.xlarge\"");
    replace(
        copy.resolve("variables.tf"),
        "^[a-z]+[0-9]+g[a-z]*\\\\.[0-9a-z]+$",
        "^[a-z]+[0-9]+[a-z]*\\\\.[0-9a-z]+$");
    replace(copy.resolve("main.tf"), "values = [\"arm64\"]", "values = [\"x86_64\"]");
    // A module input the module does not declare, a missing required one, a missing output.
    replace(
        copy.resolve("main.tf"),
        "  server_count          = var.server_count\n",
        "  replicas = 2\n");
    replace(copy.resolve("outputs.tf"), "module.servers.private_ips", "module.servers.addresses");
    // A bootstrap.env setting misspelt: the required one is then missing.
    replace(copy.resolve("main.tf"), "SHELFMARK_SEGMENT_STORE ", "SHELFMARK_SEGMENTS_STORE ");
    // An instance without the user data size precondition.
    replace(copy.resolve("modules/servers/main.tf"), "/ 4 * 3 <= 16384", "/ 4 * 3 <= 65536");

    List<String> violations = violations(check(copy, Optional.empty()));

    assertThat(violations)
        .anyMatch(v -> v.contains("zookeeper_world: ingress from \"0.0.0.0/0\" (anywhere)"))
        .anyMatch(v -> v.contains("zookeeper_world: opens an internal port to CIDR"))
        .anyMatch(v -> v.contains("zookeeper_world: an internal port not restricted"))
        .anyMatch(v -> v.contains("aws_security_group.untagged: is taggable but sets no tags"))
        .anyMatch(v -> v.contains("aws_lb.unknown: resource type aws_lb is in neither list"))
        .anyMatch(v -> v.contains("variable undocumented: has no description"))
        .anyMatch(
            v -> v.contains("coordinator_instance_type: default m7i.xlarge is not a Graviton"))
        .anyMatch(v -> v.contains("coordinator_instance_type: validation accepts x86 type"))
        .anyMatch(v -> v.contains("does not filter architecture arm64"))
        .anyMatch(v -> v.contains("al2023_arm64: filters an x86_64 image"))
        .anyMatch(v -> v.contains("module servers: passes replicas, which ./modules/servers does"))
        .anyMatch(v -> v.contains("module servers: does not pass server_count"))
        .anyMatch(v -> v.contains("module.servers.addresses, which is not an output"))
        .anyMatch(v -> v.contains("aws_instance.this: has no precondition holding its user data"))
        .anyMatch(v -> v.contains("bootstrap.env lacks SHELFMARK_SEGMENT_STORE"))
        .anyMatch(
            v -> v.contains("bootstrap.env sets SHELFMARK_SEGMENTS_STORE, which the bootstrap"));
    // Nothing else: each seed is reported by the rules it breaks and by no other.
    assertThat(violations).hasSize(16);
  }

  @Test
  void userDataSizeRuleFailsOnAnOversizedScript() throws Exception {
    Path script = dir.resolve("oversized-bootstrap.sh");
    // Random text: it does not compress below the limit as repeated lines would.
    java.util.Random random = new java.util.Random(27);
    StringBuilder text = new StringBuilder("#!/bin/bash\n");
    for (int line = 0; line < 400; line++) {
      byte[] bytes = new byte[48];
      random.nextBytes(bytes);
      text.append("# ").append(java.util.Base64.getEncoder().encodeToString(bytes)).append('\n');
    }
    Files.writeString(script, text, UTF_8);
    List<String> violations = violations(check(TERRAFORM, Optional.of(script)));
    assertThat(violations)
        .singleElement()
        .asString()
        .contains("user data may reach")
        .contains("over EC2's 16384");
  }

  @Test
  void terraformFmtFindsNothingToChange() throws Exception {
    Optional<Path> terraform = onPath("terraform");
    Assumptions.assumeTrue(
        terraform.isPresent(),
        "Skipped terraform fmt -check: no terraform binary on PATH (the HCL checks above ran)");
    Result clean =
        run(List.of(terraform.get().toString(), "fmt", "-check", "-recursive", "."), TERRAFORM);
    assertThat(clean.exitCode()).as(clean.output()).isZero();

    // And it fails on a badly formatted copy, so a zero above means something.
    Path copy = copyOf(TERRAFORM, dir.resolve("unformatted"));
    replace(copy.resolve("outputs.tf"), "  value       =", "  value =");
    Result dirty =
        run(List.of(terraform.get().toString(), "fmt", "-check", "-recursive", "."), copy);
    assertThat(dirty.exitCode()).isNotZero();
    assertThat(dirty.output()).contains("outputs.tf");
  }

  @Test
  void exampleInputsPassTheVariableValidationsAndX86TypesFailThem() throws Exception {
    Optional<Path> terraform = onPath("terraform");
    Assumptions.assumeTrue(
        terraform.isPresent(),
        "Skipped evaluating the variable validations: no terraform binary on PATH");
    String example = Files.readString(TERRAFORM.resolve("terraform.tfvars.example"));

    // terraform console evaluates the root variables' validations offline (no provider needed)
    // when the directory holds only variables.tf and the inputs.
    Result valid = validate(terraform.get(), "example", example);
    assertThat(valid.exitCode()).as(valid.output()).isZero();
    assertThat(valid.stdout()).contains("\"jdbc\"");

    Result glue =
        validate(
            terraform.get(),
            "glue",
            example
                    .replace("catalog_type      = \"jdbc\"", "catalog_type = \"glue\"")
                    .replaceAll("(?m)^catalog_(uri|warehouse|secret_ssm_parameter) .*$", "")
                + "glue_databases = [\"obs\"]\n");
    assertThat(glue.exitCode()).as(glue.output()).isZero();

    Result x86 =
        validate(terraform.get(), "x86", example + "coordinator_instance_type = \"m7i.xlarge\"\n");
    assertThat(x86.exitCode()).isNotZero();
    assertThat(x86.output()).contains("coordinator_instance_type must be a Graviton type");

    Result noStorage =
        validate(
            terraform.get(), "no-storage", example + "server_instance_type = \"r7g.4xlarge\"\n");
    assertThat(noStorage.exitCode()).isNotZero();
    assertThat(noStorage.output())
        .contains("server_instance_type must be a Graviton type with instance storage");

    Result glueWithoutDatabases =
        validate(
            terraform.get(),
            "glue-no-db",
            example.replace("catalog_type      = \"jdbc\"", "catalog_type = \"glue\""));
    assertThat(glueWithoutDatabases.exitCode()).isNotZero();
    assertThat(glueWithoutDatabases.output())
        .contains("glue_databases must name at least one database")
        .contains("catalog_uri must be a jdbc: URL for jdbc, an http(s):// URL for rest, and");
  }

  @Test
  void renderedUserDataWritesAShellSourceableEnvFileAndRunsTheScript() throws Exception {
    Optional<Path> terraform = onPath("terraform");
    Assumptions.assumeTrue(
        terraform.isPresent(), "Skipped rendering the user data: no terraform binary on PATH");
    Path work = Files.createDirectories(dir.resolve("user-data"));
    // A stand-in for the bootstrap script: it sources bootstrap.env as the real one does and
    // prints what it got.
    Path script = work.resolve("bootstrap.sh");
    Files.writeString(
        script,
        """
        #!/bin/bash
        set -euo pipefail
        . /etc/shelfmark/bootstrap.env
        printf '%s\\n' "$SHELFMARK_NODE_KIND" "$SHELFMARK_QUOTE" "$SHELFMARK_SHELL" \\
          "$SHELFMARK_JSON" "[$SHELFMARK_EMPTY]"
        """,
        UTF_8);
    String template = TERRAFORM.resolve("templates/user-data.sh.tftpl").toString();
    String expression =
        "templatefile(\"%s\", { node_kind = \"server\", bootstrap_script = file(\"%s\"), env = {"
                .formatted(template, script)
            + " SHELFMARK_NODE_KIND = \"server\","
            + " SHELFMARK_QUOTE = \"it's a 'quoted' value\","
            + " SHELFMARK_SHELL = \"$HOME $(echo no) `echo no` back\\\\slash\","
            + " SHELFMARK_JSON = jsonencode({ \"jdbc.user\" = \"shelfmark\", \"a\" = \"b=c&d\" }),"
            + " SHELFMARK_EMPTY = \"\" } })\n";
    Path input = work.resolve("expression");
    Files.writeString(input, expression, UTF_8);
    Result rendered =
        run(
            new ProcessBuilder(terraform.get().toString(), "console", "-no-color")
                .redirectInput(input.toFile()),
            work);
    assertThat(rendered.exitCode()).as(rendered.output()).isZero();
    String userData = rendered.stdout().strip();
    assertThat(userData).as(rendered.output()).startsWith("<<EOT").endsWith("EOT");
    userData = userData.substring("<<EOT".length(), userData.length() - "EOT".length()).strip();
    assertThat(userData).startsWith("#!/bin/bash");

    // Run it as an instance would, with its absolute paths moved under a temporary root.
    Path root = Files.createDirectories(work.resolve("root"));
    Path runnable = work.resolve("user-data.sh");
    Files.writeString(
        runnable,
        userData
            .replace("/etc/shelfmark", root + "/etc/shelfmark")
            .replace("/usr/local/libexec/shelfmark", root + "/libexec"),
        UTF_8);
    Result ran = run(List.of("bash", runnable.toString()), work);
    assertThat(ran.exitCode()).as(ran.output()).isZero();
    assertThat(ran.stdout().lines().toList())
        .containsExactly(
            "server",
            "it's a 'quoted' value",
            "$HOME $(echo no) `echo no` back\\slash",
            // jsonencode writes &, < and > as JSON escapes: the bootstrap must parse it as JSON.
            "{\"a\":\"b=c\\u0026d\",\"jdbc.user\":\"shelfmark\"}",
            "[]");
    assertThat(Files.readString(root.resolve("libexec/shelfmark-bootstrap.sh")))
        .isEqualTo(Files.readString(script).replace("/etc/shelfmark", root + "/etc/shelfmark"));
  }

  private static Result validate(Path terraform, String name, String inputs) throws Exception {
    Path module = Files.createDirectories(dir.resolve("variables-" + name));
    Files.copy(TERRAFORM.resolve("variables.tf"), module.resolve("variables.tf"));
    Files.writeString(module.resolve("terraform.tfvars"), inputs, UTF_8);
    Path expression = module.resolve("expression");
    Files.writeString(expression, "var.catalog_type\n", UTF_8);
    ProcessBuilder console =
        new ProcessBuilder(terraform.toString(), "console", "-no-color")
            .redirectInput(expression.toFile());
    // console exits 0 even when a validation fails: the verdict is its "Error:" diagnostics.
    // Messages are wrapped at 80 columns; one line each makes them searchable.
    Result result = run(console, module);
    return new Result(
        result.output().contains("Error: Invalid value for variable") ? 1 : 0,
        result.stdout(),
        result.output().replaceAll("\\s*\\n\\s*", " "));
  }

  private static JsonNode check(Path root, Optional<Path> script) throws Exception {
    List<String> command = new ArrayList<>(List.of(python, CHECK.toString(), root.toString()));
    script.ifPresent(path -> command.add(path.toString()));
    Result result = run(command, root);
    if (result.exitCode() != 0) {
      throw new IllegalStateException(
          "Cannot check "
              + root
              + ": terraform_check.py exited "
              + result.exitCode()
              + ":\n"
              + result.output());
    }
    return JSON.readTree(result.stdout());
  }

  private static List<String> violations(JsonNode report) {
    List<String> violations = new ArrayList<>();
    report.get("violations").forEach(node -> violations.add(node.asText()));
    return violations;
  }

  private record Result(int exitCode, String stdout, String output) {}

  private static Result run(List<String> command, Path workingDirectory) throws Exception {
    return run(new ProcessBuilder(command), workingDirectory);
  }

  private static Result run(ProcessBuilder builder, Path workingDirectory) throws Exception {
    Path err = Files.createTempFile(dir, "stderr", ".log");
    List<String> command = builder.command();
    Process process =
        builder.directory(workingDirectory.toFile()).redirectError(err.toFile()).start();
    if (builder.redirectInput() == ProcessBuilder.Redirect.PIPE) {
      process.getOutputStream().close();
    }
    String out = new String(process.getInputStream().readAllBytes(), UTF_8);
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("Cannot finish " + command + " within 120 s");
    }
    return new Result(process.exitValue(), out, out + Files.readString(err));
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String entry : path.split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(entry, name);
      if (!entry.isEmpty() && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static Path copyOf(Path source, Path target) throws IOException {
    try (Stream<Path> paths = Files.walk(source)) {
      for (Path path : paths.filter(p -> !p.toString().contains(".terraform")).toList()) {
        Path destination = target.resolve(source.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(destination);
        } else {
          Files.copy(path, destination);
        }
      }
    }
    return target;
  }

  private static void append(Path file, String text) throws IOException {
    Files.writeString(file, Files.readString(file) + "\n" + text, UTF_8);
  }

  private static void replace(Path file, String from, String to) throws IOException {
    String text = Files.readString(file);
    if (!text.contains(from)) {
      throw new IllegalStateException("Cannot seed " + file + ": it no longer contains " + from);
    }
    Files.writeString(file, text.replace(from, to), UTF_8);
  }
}
