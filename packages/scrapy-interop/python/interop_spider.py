"""A scrapy-redis spider for the interop tests: it crawls the harness's site the way a Scrapy fleet would.

Run by src/scrapy/spawn-scrapy.ts as

    PYTHONPATH=<vendored scrapy-redis src> /usr/bin/python3 -m scrapy runspider interop_spider.py \
        -a name=<spider> -a follow=<regex> -a worker=<id> -s REDIS_URL=redis://...

Settings that make it a scrapy-redis fleet (given here, not on the command line, so every process of the fleet runs
the same configuration): the Redis scheduler and dupefilter, SCHEDULER_PERSIST = True (a finishing process must not
delete the queue and the seen-set the other fleet still uses), the start-URL feed `<spider>:start_urls`.
Arguments (-a):
  name        spider name: the keys are <name>:requests, <name>:dupefilter, <name>:start_urls
  follow      regular expression a link's path must match to be followed (default: every link)
  worker      worker id, part of the User-Agent `scrapy-fleet/<worker>` the site logs
  redis_batch_size  start URLs popped per batch (scrapy-redis spider attribute; default CONCURRENT_REQUESTS)
"""

import re
from urllib.parse import urlsplit

from scrapy import Request
from scrapy_redis.spiders import RedisSpider


class InteropSpider(RedisSpider):
    name = "interop"

    custom_settings = {
        "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_PERSIST": True,
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
        "CONCURRENT_REQUESTS": 4,
        "MAX_IDLE_TIME_BEFORE_CLOSE": 3,
        "RETRY_ENABLED": False,
        "LOG_LEVEL": "INFO",
    }

    def __init__(self, *args, follow=None, worker="0", **kwargs):
        super().__init__(*args, **kwargs)
        self.redis_key = f"{self.name}:start_urls"
        self.follow = re.compile(follow) if follow else None
        # UserAgentMiddleware reads the spider's user_agent attribute when the spider opens.
        self.user_agent = f"scrapy-fleet/{worker}"

    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href)
            if self.follow is None or self.follow.search(urlsplit(url).path):
                yield Request(url, callback=self.parse)
