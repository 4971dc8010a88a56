"""Parses a Prometheus text-format scrape (stdin) with the Prometheus client's own parser and
prints its samples as JSON lines: {"name", "labels", "value"}. A scrape the parser rejects exits
non-zero with the parser's message, so a malformed exposition fails the Java test that runs this."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

text = sys.stdin.read()
for family in text_string_to_metric_families(text):
    for sample in family.samples:
        print(json.dumps({"family": family.name, "type": family.type, "name": sample.name,
                          "labels": sample.labels, "value": sample.value}))
