"""Schemathesis hooks for Vigil's API: how to put generated values on the wire for the media types that
Schemathesis has no built-in serializer for, and how to read Vigil's NDJSON findings stream.

Loaded by `apps/e2e/src/schemathesis.e2e.ts` through SCHEMATHESIS_HOOKS=vigil_hooks (PYTHONPATH=this folder).
"""

from __future__ import annotations

import io
import itertools
import json
import re
import zipfile

import schemathesis
from hypothesis import strategies as st


def _ndjson(value) -> bytes:
    """A telemetry batch: one JSON text per line. A generated list is a batch of its items."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    items = value if isinstance(value, list) else [value]
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items).encode("utf-8")


@schemathesis.serializer("application/x-ndjson")
def ndjson_serializer(ctx, value):
    return _ndjson(value)


@schemathesis.serializer("application/zip")
def zip_serializer(ctx, value):
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    return str(value).encode("utf-8")


_RULE = """title: fuzzed rule {n}
id: 5f0c0b1e-0000-4000-8000-{n:012d}
status: experimental
logsource:
  category: dns
detection:
  selection:
    query|endswith: '{suffix}'
  condition: selection
level: {level}
"""

_names = st.from_regex(r"\A[a-z0-9_/.-]{1,24}\Z", fullmatch=True)
_entry = st.one_of(
    st.builds(
        lambda n, suffix, level: ("rule-%d.yml" % n, _RULE.format(n=n, suffix=suffix, level=level).encode()),
        st.integers(min_value=0, max_value=10**6),
        st.from_regex(r"\A\.[a-z]{1,12}\Z", fullmatch=True),
        st.sampled_from(["low", "medium", "high", "critical", "bogus"]),
    ),
    st.tuples(_names, st.binary(max_size=512)),
    st.tuples(_names.map(lambda n: n + ".yml"), st.text(max_size=512).map(lambda t: t.encode("utf-8"))),
)


def _zip(entries) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return buffer.getvalue()


# Real archives (valid rules, junk files, odd names) as well as arbitrary bytes.
schemathesis.openapi.media_type(
    "application/zip",
    st.one_of(st.lists(_entry, max_size=4).map(_zip), st.binary(max_size=256)),
)


@schemathesis.deserializer("application/x-ndjson")
def ndjson_deserializer(ctx, response):
    """Every line must be JSON; the first record is what the per-line schema is checked against."""
    lines = [line for line in response.content.decode("utf-8").split("\n") if line.strip()]
    records = [json.loads(line) for line in lines]
    if not records:
        raise NotImplementedError("an empty stream has no record to validate")
    return records[0]


_idempotency_keys = itertools.count()
_VALID_KEY = re.compile(r"\A[\x21-\x7e]{1,255}\Z")


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    """Each request's Idempotency-Key made unique, in every phase. Generation repeats keys across different bodies,
    and the same key with another body is a 422 by design (openapi-conformance.e2e.ts produces the replay and the
    422); unique keys keep those requests valid while still sending the header."""
    for name, value in list((case.headers or {}).items()):
        # Malformed keys stay as generated: they must be refused (400).
        if name.lower() == "idempotency-key" and isinstance(value, str) and _VALID_KEY.match(value.strip('"')):
            case.headers[name] = "fuzz-%d" % next(_idempotency_keys)
