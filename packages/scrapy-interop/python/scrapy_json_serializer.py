"""A JSON SCHEDULER_SERIALIZER for scrapy-redis, as a fleet would write one: Python's json cannot write bytes, so
`request.to_dict()`'s bytes (body, header names and values) are written as UTF-8 text and read back as bytes by
Scrapy's Request (which accepts text). crawlee-redis-queue's takeover (`serializer: 'json'`) reads this format.

Used by the takeover interop test with `-s SCHEDULER_SERIALIZER=scrapy_json_serializer` (this folder on PYTHONPATH).
"""

import json


def _text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, dict):
        return {_text(k): _text(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_text(v) for v in value]
    return value


def dumps(obj):
    return json.dumps(_text(obj), sort_keys=True)


def loads(s):
    return json.loads(s)
