"""Offline checks of deploy/terraform, run by TestTerraformModules (terraform validate needs the
AWS provider, which cannot be downloaded here). Parses every .tf file with python-hcl2 and prints
one JSON object: {"violations": [...], "checked": {...}, "user_data": {...}}.

Usage: terraform_check.py ROOT_MODULE_DIR [BOOTSTRAP_SCRIPT]

The rules (docs/deploy.md, "What CI checks"):
  variables  every variable of every module has a description and a type
  tags       the root provider has default_tags; every taggable resource also sets tags with a
             Name (instances also tag their root volume, which default_tags do not reach); a
             resource type in neither list below is a violation, so that a new type is decided on
  ingress    no ingress rule opens anything to 0.0.0.0/0 or ::/0; a rule on an internal port
             (ZooKeeper, server RPC, controller admin) references its own security group and
             names no CIDR
  graviton   every AMI lookup filters architecture arm64; every *instance_type variable has a
             Graviton default and a validation whose regex accepts it and refuses x86 types
  modules    every module call passes only variables the module declares and every variable
             without a default; every module.X.Y reference names an output X declares
  contract   the root module sets every setting of bootstrap.env the bootstrap script requires,
             and no SHELFMARK_ setting the contract does not name (a typo would be ignored)
  user data  the template and the bootstrap script, gzipped as the instances pass them
             (cloud-init unpacks them), plus an uncompressed allowance for bootstrap.env stay
             under EC2's 16384 bytes, and the instances check the gzipped size at plan time
"""

import gzip
import json
import os
import re
import sys

import hcl2

USER_DATA_LIMIT = 16384
# bootstrap.env: about 22 lines of KEY='value'; 3 KiB leaves room for long URLs and properties.
ENV_ALLOWANCE = 3072

# Resource types that take tags (AWS provider) and those that do not. Anything else is reported.
TAGGABLE = {
    "aws_vpc", "aws_subnet", "aws_route_table", "aws_internet_gateway", "aws_nat_gateway",
    "aws_eip", "aws_vpc_endpoint", "aws_security_group", "aws_vpc_security_group_ingress_rule",
    "aws_vpc_security_group_egress_rule", "aws_network_interface", "aws_instance",
    "aws_iam_role", "aws_iam_instance_profile", "aws_ebs_volume", "aws_s3_bucket",
}
NOT_TAGGABLE = {
    "aws_route", "aws_route_table_association", "aws_iam_role_policy",
    "aws_iam_role_policy_attachment", "aws_vpc_endpoint_route_table_association",
    "aws_volume_attachment", "aws_security_group_rule",
}
# bootstrap.env: the settings of the contract with deploy/bootstrap/shelfmark-bootstrap.sh
# (docs/deploy.md, "First boot"), and those the root module must always write.
CONTRACT_SETTINGS = {
    "SHELFMARK_ROOT", "SHELFMARK_INSTALL_SYSTEM", "SHELFMARK_NODE_KIND", "SHELFMARK_DIST_URL",
    "SHELFMARK_VERSION", "SHELFMARK_CLUSTER_NAME", "SHELFMARK_HOST", "SHELFMARK_ZOOKEEPER_CONNECT",
    "SHELFMARK_ZOOKEEPER_PORT", "SHELFMARK_BROKER_HTTP_PORT", "SHELFMARK_BROKER_FLIGHT_PORT",
    "SHELFMARK_CONTROLLER_HTTP_PORT", "SHELFMARK_SERVER_RPC_PORT", "SHELFMARK_SERVER_FLIGHT_PORT",
    "SHELFMARK_STORAGE_REGION", "SHELFMARK_STORAGE_ENDPOINT", "SHELFMARK_CATALOG_TYPE",
    "SHELFMARK_CATALOG_NAME", "SHELFMARK_CATALOG_URI", "SHELFMARK_CATALOG_WAREHOUSE",
    "SHELFMARK_CATALOG_PROPERTIES_JSON", "SHELFMARK_CATALOG_SECRET_SSM_PARAMETER",
    "SHELFMARK_CATALOG_SECRET_ENV_VAR", "SHELFMARK_SEGMENT_STORE", "SHELFMARK_DATA_DIR",
    "SHELFMARK_MEMORY_MB", "SHELFMARK_DISK_GB",
}
REQUIRED_SETTINGS = {
    "SHELFMARK_INSTALL_SYSTEM", "SHELFMARK_NODE_KIND", "SHELFMARK_DIST_URL", "SHELFMARK_VERSION",
    "SHELFMARK_CLUSTER_NAME", "SHELFMARK_HOST", "SHELFMARK_ZOOKEEPER_CONNECT",
    "SHELFMARK_STORAGE_REGION", "SHELFMARK_CATALOG_TYPE", "SHELFMARK_SEGMENT_STORE",
}
INTERNAL_PORT_VARIABLES = ("zookeeper_port", "server_rpc_port", "controller_http_port")
INTERNAL_PORT_NUMBERS = {2181, 8097, 8098}
OPEN_CIDRS = ("0.0.0.0/0", "::/0")
META_ARGUMENTS = {"source", "version", "count", "for_each", "providers", "depends_on"}
# Types the instance type validations must refuse: x86 (Intel, AMD) and a Graviton type without
# instance storage for the servers is checked by the server regex itself.
X86_TYPES = ("m7i.xlarge", "r6id.4xlarge", "c6a.large", "t3.medium")


def unquote(key):
    return key[1:-1] if len(key) >= 2 and key[0] == '"' and key[-1] == '"' else key


def literal(value):
    """The string of a quoted literal without interpolation, else None."""
    if isinstance(value, str) and len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        inner = value[1:-1]
        return None if "${" in inner else inner
    return None


def text(value):
    return json.dumps(value) if not isinstance(value, str) else value


def strip_comments(value):
    if isinstance(value, dict):
        return {key: strip_comments(item) for key, item in value.items() if key != "__comments__"}
    if isinstance(value, list):
        return [strip_comments(item) for item in value]
    return value


def blocks(body, name):
    """Attribute or block `name` of a parsed body as a list of bodies."""
    found = body.get(name, [])
    return found if isinstance(found, list) else [found]


class Module:
    def __init__(self, directory):
        self.directory = directory
        self.files = {}
        for name in sorted(os.listdir(directory)):
            if name.endswith(".tf"):
                with open(os.path.join(directory, name), encoding="utf-8") as handle:
                    self.files[name] = hcl2.load(handle)

    def top(self, kind):
        """(file, labels..., body) of every top-level block of a kind."""
        for file, parsed in self.files.items():
            for entry in parsed.get(kind, []):
                yield file, entry

    def variables(self):
        for file, entry in self.top("variable"):
            for name, body in entry.items():
                yield file, unquote(name), body

    def outputs(self):
        return {unquote(name) for _, entry in self.top("output") for name in entry}

    def resources(self):
        for file, entry in self.top("resource"):
            for kind, named in entry.items():
                for name, body in named.items():
                    yield file, unquote(kind), unquote(name), body

    def data(self):
        for file, entry in self.top("data"):
            for kind, named in entry.items():
                for name, body in named.items():
                    yield file, unquote(kind), unquote(name), body

    def module_calls(self):
        for file, entry in self.top("module"):
            for name, body in entry.items():
                yield file, unquote(name), body

    def source_text(self):
        """Every expression of the module as text, without comments."""
        return json.dumps([strip_comments(parsed) for parsed in self.files.values()])


class Checker:
    def __init__(self, root, script):
        self.root = root
        self.script = script
        self.violations = []
        self.checked = {"modules": 0, "variables": 0, "resources": 0, "ingress_rules": 0,
                        "module_calls": 0, "instance_type_variables": 0, "ami_lookups": 0}
        self.user_data = {}
        self.modules = {}

    def fail(self, where, message):
        self.violations.append(f"{where}: {message}")

    def load(self, directory):
        directory = os.path.normpath(directory)
        if directory not in self.modules:
            self.modules[directory] = Module(directory)
            for _, _, body in self.modules[directory].module_calls():
                source = literal(body.get("source"))
                if source and source.startswith("."):
                    self.load(os.path.join(directory, source))
        return self.modules[directory]

    def label(self, module):
        relative = os.path.relpath(module.directory, self.root)
        return "root module" if relative == "." else relative

    def where(self, module, file):
        return os.path.relpath(os.path.join(module.directory, file), self.root)

    def run(self):
        root = self.load(self.root)
        self.checked["modules"] = len(self.modules)
        for module in self.modules.values():
            self.check_variables(module)
            self.check_resources(module)
            self.check_graviton(module)
            self.check_module_calls(module)
        self.check_default_tags(root)
        self.check_ami_lookups()
        self.check_user_data(root)
        self.check_contract(root)
        return {"violations": self.violations, "checked": self.checked, "user_data": self.user_data}

    def check_variables(self, module):
        for file, name, body in module.variables():
            self.checked["variables"] += 1
            where = f"{self.where(module, file)} variable {name}"
            description = literal(body.get("description"))
            if not description or not description.strip():
                self.fail(where, "has no description")
            if "type" not in body:
                self.fail(where, "has no type")

    def check_default_tags(self, root):
        tagged = False
        for file, entry in root.top("provider"):
            for name, body in entry.items():
                if unquote(name) == "aws" and any("tags" in block for block in blocks(body, "default_tags")):
                    tagged = True
        if not tagged:
            self.fail(os.path.basename(self.root), "the aws provider has no default_tags block with tags")

    def check_resources(self, module):
        for file, kind, name, body in module.resources():
            self.checked["resources"] += 1
            where = f"{self.where(module, file)} {kind}.{name}"
            if kind in TAGGABLE:
                tags = body.get("tags")
                if not isinstance(tags, dict) or "Name" not in {unquote(key) for key in tags}:
                    self.fail(where, "is taggable but sets no tags with a Name")
                if kind == "aws_instance":
                    for device in blocks(body, "root_block_device"):
                        if "tags" not in device:
                            self.fail(where, "root_block_device has no tags (default_tags do not reach it)")
            elif kind not in NOT_TAGGABLE:
                self.fail(where, f"resource type {kind} is in neither list of terraform_check.py"
                          " (add it to TAGGABLE or NOT_TAGGABLE)")
            self.check_ingress(where, kind, body)

    def check_ingress(self, where, kind, body):
        rules = []
        if kind == "aws_vpc_security_group_ingress_rule":
            rules.append(body)
        elif kind == "aws_security_group_rule" and literal(body.get("type")) == "ingress":
            rules.append(body)
        elif kind == "aws_security_group":
            rules.extend(blocks(body, "ingress"))
        for rule in rules:
            self.checked["ingress_rules"] += 1
            cidrs = [rule.get(key) for key in ("cidr_ipv4", "cidr_ipv6", "cidr_blocks", "ipv6_cidr_blocks")
                     if rule.get(key) is not None]
            cidr_text = " ".join(text(cidr) for cidr in cidrs)
            if any(open_cidr in cidr_text for open_cidr in OPEN_CIDRS):
                self.fail(where, f"ingress from {cidr_text} (anywhere)")
            if self.internal(body, rule):
                if cidrs:
                    self.fail(where, f"opens an internal port to CIDR {cidr_text}"
                              " (internal ports are for cluster members: reference the security group)")
                referenced = rule.get("referenced_security_group_id", rule.get("source_security_group_id"))
                own = rule.get("security_group_id")
                self_rule = rule.get("self") is True or (referenced is not None and referenced == own)
                if kind == "aws_security_group":
                    self_rule = rule.get("self") is True
                if not self_rule:
                    self.fail(where, "an internal port not restricted to its own security group (self reference)")

    @staticmethod
    def internal(body, rule):
        ports = " ".join(text(rule.get(key, "")) for key in ("from_port", "to_port"))
        if text(rule.get("ip_protocol", rule.get("protocol", ""))) in ('"-1"', '"all"', "-1"):
            return True
        mentioned = ports + " " + text(body.get("for_each", ""))
        if any(variable in mentioned for variable in INTERNAL_PORT_VARIABLES + ("internal_ports",)):
            return True
        numbers = [rule.get(key) for key in ("from_port", "to_port")]
        if all(isinstance(number, int) for number in numbers):
            return any(numbers[0] <= port <= numbers[1] for port in INTERNAL_PORT_NUMBERS)
        return False

    def check_graviton(self, module):
        for file, name, body in module.variables():
            if not name.endswith("instance_type"):
                continue
            where = f"{self.where(module, file)} variable {name}"
            default = literal(body.get("default"))
            if default is None:
                continue  # a module input: the root's variable is validated
            self.checked["instance_type_variables"] += 1
            patterns = []
            for validation in blocks(body, "validation"):
                condition = text(validation.get("condition", ""))
                # regex("PATTERN", var.NAME) inside the HCL condition, as python-hcl2 renders it.
                for match in re.finditer(r'regex\(\\?"((?:[^"\\]|\\.)*?)\\?",\s*var\.' + re.escape(name), condition):
                    patterns.append(match.group(1).encode().decode("unicode_escape").replace('\\"', '"'))
            if not patterns:
                self.fail(where, "has no validation regex on the instance type (Graviton only)")
                continue
            accepts = [pattern for pattern in patterns if re.search(pattern, default)]
            if not re.match(r"^[a-z]+[0-9]+g[a-z]*\.", default):
                self.fail(where, f"default {default} is not a Graviton (arm64) type")
            if not accepts:
                self.fail(where, f"validation refuses its own default {default}")
            accepted = [x86 for x86 in X86_TYPES if all(re.search(pattern, x86) for pattern in patterns)]
            if accepted:
                self.fail(where, f"validation accepts x86 types {', '.join(accepted)} (the AMI is arm64)")
            if name.startswith("server") and not re.match(r"^[a-z]+[0-9]+g[a-z]*d[a-z]*\.", default):
                self.fail(where, f"default {default} has no instance storage (a *gd type)")

    def check_ami_lookups(self):
        for module in self.modules.values():
            for file, kind, name, body in module.data():
                if kind != "aws_ami":
                    continue
                self.checked["ami_lookups"] += 1
                where = f"{self.where(module, file)} data.aws_ami.{name}"
                filters = {literal(block.get("name")): text(block.get("values")) for block in blocks(body, "filter")}
                if "arm64" not in filters.get("architecture", ""):
                    self.fail(where, "does not filter architecture arm64 (the instance types are Graviton)")
                if "x86_64" in " ".join(filters.values()):
                    self.fail(where, "filters an x86_64 image")
        if self.checked["ami_lookups"] == 0:
            self.fail("deploy/terraform", "no aws_ami lookup found")

    def check_module_calls(self, module):
        source_text = module.source_text()
        called = {}
        for file, name, body in module.module_calls():
            self.checked["module_calls"] += 1
            where = f"{self.where(module, file)} module {name}"
            source = literal(body.get("source"))
            if not source or not source.startswith("."):
                self.fail(where, f"source {source} is not a local module")
                continue
            callee = self.modules[os.path.normpath(os.path.join(module.directory, source))]
            called[name] = callee
            declared = {var: body_ for _, var, body_ in callee.variables()}
            passed = {key for key in body if key not in META_ARGUMENTS and not key.startswith("__")}
            for key in sorted(passed - set(declared)):
                self.fail(where, f"passes {key}, which {source} does not declare")
            for var, var_body in sorted(declared.items()):
                if "default" not in var_body and var not in passed:
                    self.fail(where, f"does not pass {var}, which {source} requires (no default)")
        # Output references: module.NAME.OUTPUT in this module's expressions.
        for match in sorted(set(re.findall(r"\bmodule\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)", source_text))):
            callee = called.get(match[0])
            if callee is None:
                self.fail(self.label(module),
                          f"refers to module.{match[0]}, which is not called")
            elif match[1] not in callee.outputs():
                self.fail(self.label(module),
                          f"refers to module.{match[0]}.{match[1]}, which is not an output of that module")

    def check_contract(self, root):
        # Keys of the bootstrap_env local and of the per-kind merges, as python-hcl2 renders them:
        # object keys in parsed locals, or NAME = inside the templatefile expressions.
        text_ = root.source_text()
        written = set(re.findall(r"\b(SHELFMARK_[A-Z0-9_]+)\b(?=\\?\"?\s*(?:=|:))", text_))
        for setting in sorted(REQUIRED_SETTINGS - written):
            self.fail("main.tf", f"bootstrap.env lacks {setting}, which the bootstrap script requires")
        for setting in sorted(written - CONTRACT_SETTINGS):
            self.fail("main.tf", f"bootstrap.env sets {setting}, which the bootstrap contract does not name")
        self.checked["bootstrap_settings"] = len(written)

    def check_user_data(self, root):
        template = os.path.join(self.root, "templates", "user-data.sh.tftpl")
        source_text = root.source_text()
        if "templates/user-data.sh.tftpl" not in source_text:
            self.fail("main.tf", "does not render templates/user-data.sh.tftpl")
        if not os.path.isfile(template):
            self.fail("templates/user-data.sh.tftpl", "is missing")
            return
        template_bytes = os.path.getsize(template)
        self.user_data["template_bytes"] = template_bytes
        self.user_data["env_allowance_bytes"] = ENV_ALLOWANCE
        for module in self.modules.values():
            for file, kind, name, body in module.resources():
                conditions = [text(block.get("condition")) for life in blocks(body, "lifecycle")
                              for block in blocks(life, "precondition")]
                if kind == "aws_instance" and not any(
                        "user_data" in condition and "<= 16384" in condition for condition in conditions):
                    self.fail(f"{self.where(module, file)} {kind}.{name}",
                              "has no precondition holding its user data to 16384 bytes")
        if self.script is None or not os.path.isfile(self.script):
            self.user_data["script_bytes"] = None
            return
        with open(template, encoding="utf-8") as handle:
            template_text = handle.read()
        with open(self.script, encoding="utf-8") as handle:
            script = handle.read()
        # Terraform's base64gzip is Go's gzip at its default level, about zlib's 6.
        compressed = len(gzip.compress((template_text + script).encode(), compresslevel=6, mtime=0))
        total = compressed + ENV_ALLOWANCE
        self.user_data.update({"script_bytes": len(script.encode()),
                               "raw_bytes": template_bytes + len(script.encode()),
                               "gzip_bytes": compressed, "bound_bytes": total})
        if total > USER_DATA_LIMIT:
            self.fail("templates/user-data.sh.tftpl", f"user data may reach {total} bytes (template and bootstrap"
                      f" script gzipped {compressed} + bootstrap.env allowance {ENV_ALLOWANCE}), over EC2's {USER_DATA_LIMIT}")
        for delimiter in ("SHELFMARK_BOOTSTRAP_SCRIPT", "SHELFMARK_BOOTSTRAP_ENV"):
            if re.search(rf"^{delimiter}$", script, re.MULTILINE):
                self.fail("templates/user-data.sh.tftpl", f"the bootstrap script contains the here-document delimiter {delimiter}")


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    root = os.path.abspath(sys.argv[1])
    script = os.path.abspath(sys.argv[2]) if len(sys.argv) == 3 else None
    print(json.dumps(Checker(root, script).run(), indent=1))


if __name__ == "__main__":
    main()
