"""A scrapy-redis spider for the feed-layout interop test: it only fetches its start URLs (no links followed).

    PYTHONPATH=<vendored scrapy-redis src> python3 -m scrapy runspider layout_spider.py \
        -a name=<spider> -a keys=<k1,k2,...> -a worker=<id> -s REDIS_URL=... [-s REDIS_START_URLS_AS_SET=True]

`keys` with more than one key uses scrapy-redis master's list `redis_key` (priority order)."""

from scrapy_redis.spiders import RedisSpider


class LayoutSpider(RedisSpider):
    name = "layout"

    custom_settings = {
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
        "CONCURRENT_REQUESTS": 2,
        "MAX_IDLE_TIME_BEFORE_CLOSE": 3,
        "RETRY_ENABLED": False,
        "LOG_LEVEL": "INFO",
    }

    def __init__(self, *args, keys="", worker="0", **kwargs):
        super().__init__(*args, **kwargs)
        split = [k for k in keys.split(",") if k]
        self.redis_key = split if len(split) > 1 else split[0]
        self.redis_batch_size = 2
        self.user_agent = f"scrapy-fleet/{worker}"

    def parse(self, response):
        yield {"url": response.url}
