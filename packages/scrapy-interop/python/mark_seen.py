"""Marks requests as seen the way a Scrapy fleet does: scrapy-redis's RFPDupeFilter.request_seen (SADD of its
fingerprint of Request(url), built by the installed Scrapy) into <key>. Prints one line per URL: "new" or "seen".

    PYTHONPATH=<vendored scrapy-redis src> /usr/bin/python3 mark_seen.py <redis-url> <key> <url>...
"""

import sys

import redis
from scrapy import Request
from scrapy_redis.dupefilter import RFPDupeFilter


def main():
    server = redis.from_url(sys.argv[1])
    dupefilter = RFPDupeFilter(server, key=sys.argv[2])
    for url in sys.argv[3:]:
        print("seen" if dupefilter.request_seen(Request(url)) else "new")


if __name__ == "__main__":
    main()
