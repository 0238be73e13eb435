"""bench:engine's scrapy-redis row: the real scrapy-redis scheduler's Redis work on the same requests.

Run with Debian's python3 (python3-scrapy, python3-redis) and the vendored scrapy-redis on PYTHONPATH.

    scrapy_redis_driver.py add REDIS_URL NAME   < requests.jsonl   (one {"url", "userData"} a line)
        what Scheduler.enqueue_request does per request: RFPDupeFilter.request_seen (SADD of the fingerprint),
        then, when new, PriorityQueue.push (ZADD of the pickled request)
    scrapy_redis_driver.py pop REDIS_URL NAME
        prints "ready", waits for a line on stdin, then PriorityQueue.pop (MULTI, ZRANGE, ZREMRANGEBYRANK, EXEC)
        until the queue is empty, decoding each request as the scheduler does

Prints one JSON line with its counts and timestamps (epoch ms).
"""

import json
import sys
import time

import redis
from scrapy import Request, Spider
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.queue import PriorityQueue


def main():
    mode, url, name = sys.argv[1:4]
    server = redis.Redis.from_url(url)
    spider = Spider(name=name)
    queue = PriorityQueue(server, spider, f"{name}:requests")
    if mode == "add":
        dupefilter = RFPDupeFilter(server, f"{name}:dupefilter")
        started = time.time()
        added = seen = 0
        for line in sys.stdin:
            if not line.strip():
                continue
            item = json.loads(line)
            request = Request(item["url"], meta=item.get("userData") or {})
            if dupefilter.request_seen(request):
                seen += 1
                continue
            queue.push(request)
            added += 1
        print(json.dumps({"added": added, "seen": seen, "seconds": time.time() - started}))
        return
    if mode != "pop":
        raise SystemExit(f"unknown mode {mode}: use add or pop")
    print("ready", flush=True)
    sys.stdin.readline()
    popped = 0
    first_at = last_at = time.time() * 1000
    while True:
        request = queue.pop()
        if request is None:
            break
        popped += 1
        last_at = time.time() * 1000
    print(json.dumps({"popped": popped, "firstAt": first_at, "lastAt": last_at}), flush=True)


if __name__ == "__main__":
    main()
