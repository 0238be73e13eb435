"""Runs the real scrapy-redis RedisMixin.make_request_from_data (vendored, on Debian's Scrapy) on items read from
stdin (one base64 item per line) and prints, per item, one JSON line: the request's url, method, body (base64),
headers and meta, or the error scrapy-redis raised, or "skipped" when it made no request."""
import base64
import json
import logging
import sys

from scrapy_redis.spiders import RedisMixin


class Mixin(RedisMixin):
    redis_encoding = "utf-8"
    logger = logging.getLogger("mixin")


logging.disable(logging.CRITICAL)
mixin = Mixin()
for line in sys.stdin:
    data = base64.b64decode(line.strip())
    try:
        req = mixin.make_request_from_data(data)
    except Exception as error:  # what a scrapy-redis spider would crash with
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        continue
    if isinstance(req, list):
        print(json.dumps({"skipped": True}))
        continue
    headers = {k.decode(): [v.decode() for v in vs] for k, vs in req.headers.items()}
    print(json.dumps({
        "url": req.url,
        "method": req.method,
        "body": base64.b64encode(req.body).decode(),
        "headers": headers,
        "meta": {k: v for k, v in req.meta.items()},
    }))
