# SPDX-License-Identifier: GPL-2.0-only
"""The qdisc-lab.metrics/1 contract as checked by qdisclab.metrics."""

import json
import re
from pathlib import Path

import pytest

from conftest import VALID_DOC

from qdisclab.metrics import MetricsError, load_metrics, parse_metrics, validate_metrics
from qdisclab.schema import ProgramSchema


def write(tmp_path, doc) -> Path:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return path


def test_valid_document_loads(tmp_path, valid_doc):
    doc = load_metrics(write(tmp_path, valid_doc))
    assert doc == valid_doc
    assert doc["metrics"]["p99_queue_delay_ms"] is None


def test_unknown_program_needs_only_the_generic_keys(valid_doc):
    valid_doc["program"] = "some-future-example"
    valid_doc["metrics"] = {"x": 1}
    valid_doc["params"] = {}
    assert validate_metrics(valid_doc) is valid_doc


def test_wrong_schema(tmp_path, valid_doc):
    valid_doc["schema"] = "qdisc-lab.metrics/2"
    expected = r"schema is 'qdisc-lab.metrics/2', expected 'qdisc-lab.metrics/1'"
    with pytest.raises(MetricsError, match=expected):
        load_metrics(write(tmp_path, valid_doc))


def test_missing_metrics_key(valid_doc):
    del valid_doc["metrics"]
    with pytest.raises(MetricsError, match="missing required key.*metrics"):
        validate_metrics(valid_doc)


#: A schema (the program's --schema) for the dumbbell-fifo-vs-red document of conftest.
SCHEMA = ProgramSchema(
    "dumbbell-fifo-vs-red",
    tuple({"name": name, "type": "string", "default": "", "help": "", "recorded": recorded}
          for name, recorded in [("queueDisc", "always"), ("nTcp", "always"),
                                 ("udpRate", "sometimes"), ("quick", "never")]),
    tuple({"name": name, "recorded": "always"} for name in VALID_DOC["metrics"]),
)


def test_without_a_schema_only_the_contract_is_checked(valid_doc):
    del valid_doc["metrics"]["tcp_goodput_mbps"]
    del valid_doc["params"]["nTcp"]
    assert validate_metrics(valid_doc) is valid_doc


def test_a_report_that_follows_its_schema_passes(valid_doc):
    assert validate_metrics(valid_doc, schema=SCHEMA) is valid_doc


def test_missing_program_metric(valid_doc):
    del valid_doc["metrics"]["tcp_goodput_mbps"]
    with pytest.raises(MetricsError, match="must report metric.*tcp_goodput_mbps"):
        validate_metrics(valid_doc, schema=SCHEMA)


def test_missing_program_param(valid_doc):
    del valid_doc["params"]["nTcp"]
    with pytest.raises(MetricsError, match="must report param.*nTcp"):
        validate_metrics(valid_doc, schema=SCHEMA)


def test_undeclared_metric(valid_doc):
    valid_doc["metrics"]["surprise_mbps"] = 1
    with pytest.raises(MetricsError, match="does not declare metric.*surprise_mbps"):
        validate_metrics(valid_doc, schema=SCHEMA)


@pytest.mark.parametrize("bad", ["9.1", True, [1], {"v": 1}])
def test_non_numeric_metric(valid_doc, bad):
    valid_doc["metrics"]["drops"] = bad
    with pytest.raises(MetricsError, match="finite numbers or null: drops="):
        validate_metrics(valid_doc)


def test_nan_metric_is_rejected():
    text = (
        '{"schema": "qdisc-lab.metrics/1", "program": "p", "ns3_version": "3.37",'
        ' "params": {}, "metrics": {"m": NaN}}'
    )
    with pytest.raises(MetricsError, match="m=nan"):
        parse_metrics(text)


def test_wrong_type_of_section(valid_doc):
    valid_doc["params"] = ["queueDisc"]
    with pytest.raises(MetricsError, match="'params' must be a JSON object, got list"):
        validate_metrics(valid_doc)


def test_not_an_object():
    with pytest.raises(MetricsError, match="expected a JSON object, got list"):
        parse_metrics("[]")


def test_invalid_json_names_the_file(tmp_path):
    path = write(tmp_path, "{not json")
    with pytest.raises(MetricsError, match=re.escape(f"{path}: not valid JSON")):
        load_metrics(path)


def test_missing_file(tmp_path):
    with pytest.raises(MetricsError, match="cannot read metrics file"):
        load_metrics(tmp_path / "absent.json")
