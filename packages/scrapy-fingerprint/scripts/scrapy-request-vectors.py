#!/usr/bin/env python3
"""Print fingerprint vectors from the installed Scrapy (JSON lines) for test/scrapy-request.test.ts.

Run with the Python whose Scrapy the other fleet runs (Debian 12: /usr/bin/python3, python3-scrapy 2.8):

    /usr/bin/python3 scripts/scrapy-request-vectors.py --scrapy-redis-src ../shared/vendor/scrapy-redis/src

The first line is {"versions": {...}}; every other line is one URL with what Scrapy made of it:
  url          the input URL
  request_url  Request(url).url (safe_url_string, then escape_ajax on Scrapy <= 2.12)
  fp_url       canonicalize_url(request.url) (the URL every recipe hashes, keep_fragments=False)
  fp27         scrapy.utils.request.fingerprint(request).hex()                  (recipe 'scrapy')
  fp27_kf      the same with keep_fragments=True
  fp26         scrapy.utils.request.request_fingerprint(request), or null       (recipe 'scrapy-2.6')
  fp26_kf      the same with keep_fragments=True
  fp_redis     scrapy_redis.dupefilter.RFPDupeFilter.request_fingerprint(...)   (recipe 'scrapy-redis')
  error        "Type: message" when Request() raised, else null (the other fields are then null)

The URLs are hand-picked plus generated from a fixed seed (deterministic output). They stay away from the two
things w3lib 2.1.1 (Debian) and 2.4.1 (this port's target) do differently, IPv6 brackets and userinfo case, so
every difference left is about Request() itself.
"""

import argparse
import json
import random
import sys
import warnings


HAND_PICKED = [
    "http://example.com/ajax.html#!key=value",
    "http://example.com/ajax.html?k1=v1&k2=v2#!key=value",
    "http://example.com/ajax.html?#!key=value",
    "http://example.com/ajax.html#!",
    "http://example.com/ajax.html#key=value",
    "http://example.com/ajax.html#",
    "http://example.com/ajax.html",
    "http://example.com/#!/users/42",
    "http://example.com/app#!page=2&sort=asc",
    "http://example.com/app?page=1#!page=2",
    "http://example.com/app?_escaped_fragment_=old#!new",
    "http://example.com/app?_escaped_fragment_=a&_escaped_fragment_=b#!c",
    "http://example.com/app?a=1&_escaped_fragment_=x&b=2#!y",
    "http://example.com/app?q=%FF#!x",
    "http://example.com/app?q=caf%E9#!x",
    "http://example.com/app?w=%E9;v=1#!x",
    "http://example.com/app?a=1;b=2#!x",
    "http://example.com/app?a=b+c&d=e%20f#!g+h",
    "http://example.com/app?a&b=&=c#!x",
    "http://example.com/app?&&a=1&&#!x",
    "http://example.com/app?a=%2B%26%3D#!%2B%26%3D",
    "http://example.com/app#!a#b",
    "http://example.com/app#!!",
    "http://example.com/app#!%",
    "http://example.com/app#!%zz",
    "http://example.com/app#!%41%42",
    "http://example.com/app#!caf\u00e9",
    "http://example.com/app#!\u65e5\u672c\u8a9e",
    "http://example.com/app#!\U0001f600",
    "http://example.com/app#!a b",
    "http://example.com/app#!a+b",
    "http://example.com/app#!a=1&b=2",
    "http://example.com/app#!/path?x=1",
    "http://example.com/app#!|[]{}",
    "http://example.com/app#! ",
    "http://example.com/app#!\t",
    "http://example.com/app#!key=val#more",
    "http://example.com/app# !x",
    "http://example.com/app#%21x",
    "http://example.com/app##!x",
    "http://example.com/app;params#!x",
    "http://example.com/a;b/c;d?e=f#!g",
    "http://example.com#!x",
    "http://example.com?#!x",
    "http://example.com/?a=1#!",
    "https://example.com:443/p#!x",
    "http://example.com:8080/p?q=1#!x",
    "http://EXAMPLE.com/P?Q=1#!X",
    "http://www.b\u00fccher.de/#!x",
    "http://fa\u00df.de/p?\u00e9=\u00e8#!\u00ea",
    "http://example.com/\u00e9t\u00e9?q=\u00e9#!\u00e9",
    "http://example.com/%7euser/#!x",
    "http://example.com/a%2Fb%3Fc#!x",
    "http://example.com/%25#!%25",
    "http://example.com/p?q=%25zz#!x",
    "ftp://example.com/file.txt#!x",
    "file:///tmp/a.html#!x",
    "data:text/plain,hello#!x",
    "about:blank#!x",
    "http://example.com/search?q=a&q=b&q=c#!q=d",
    "http://example.com/x?%E2%82%AC=%E2%82%AC#!%E2%82%AC",
    "http://example.com/x?a=%e2%82%ac#!x",
    "http://example.com/x?a=\u20ac#!\u20ac=\u20ac",
    "http://example.com/x?a==b#!=",
    "http://example.com/x?=#!==",
    "http://example.com/x?a=1#!&",
    "http://example.com/x?%00=%01#!%00",
    "http://example.com/x?a=%0A#!%0D%0A",
    "  http://example.com/lead#!x",
    "http://example.com/tail#!x  ",
    "http://example.com/x#!a\nb",
    "mailto:a@example.com#!x",
    "relative/x#!y",
]

PATHS = ["/", "", "/a", "/a/b.html", "/p;q", "/%7E", "/caf\u00e9", "/%C3%A9", "/a%2Fb", "/a b", "/~u/", "/%zz"]
QUERIES = [None, "", "a=1", "b=2&a=1", "a=1;b=2", "q=%FF", "q=caf%E9", "a", "a=", "=v", "a=b+c",
           "a=%20", "k=\u00e9", "x=%2B", "_escaped_fragment_=z", "a=1&a=2&a=1", "&&", "q=a%26b", "e=%E2%82%AC"]
FRAGMENTS = [None, "", "!", "!x", "!a=1", "!a=1&b=2", "!/p/q", "!caf\u00e9", "!%FF", "!a b", "!a+b", "!#",
             "x", "/route", "a=1", " !x", "!!x", "!%2F", "!_escaped_fragment_=q", "!\u00e9=\u00e8&%41"]
HOSTS = ["example.com", "Example.COM", "sub.example.org:8080", "b\u00fccher.de", "127.0.0.1", "localhost:3000"]
SCHEMES = ["http", "https", "HTTP"]


def generated(count, seed=15):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        url = f"{rng.choice(SCHEMES)}://{rng.choice(HOSTS)}{rng.choice(PATHS)}"
        query = rng.choice(QUERIES)
        if query is not None:
            url += "?" + query
        fragment = rng.choice(FRAGMENTS)
        if fragment is not None:
            url += "#" + fragment
        out.append(url)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scrapy-redis-src", required=True, help="folder holding the scrapy_redis package")
    parser.add_argument("--count", type=int, default=400, help="generated URLs besides the hand-picked ones")
    args = parser.parse_args()
    sys.path.insert(0, args.scrapy_redis_src)
    warnings.simplefilter("ignore")  # Scrapy 2.7-2.11 warn about request_fingerprint(); the values are what counts

    import scrapy
    import w3lib
    from scrapy import Request
    from scrapy.utils import request as scrapy_request
    from scrapy_redis.dupefilter import RFPDupeFilter
    from w3lib.url import canonicalize_url

    legacy = getattr(scrapy_request, "request_fingerprint", None)
    redis_fp = RFPDupeFilter.request_fingerprint
    versions = {"scrapy": scrapy.__version__, "w3lib": w3lib.__version__, "python": sys.version.split()[0],
                "has_request_fingerprint": legacy is not None}
    print(json.dumps({"versions": versions}))

    seen = set()
    for url in HAND_PICKED + generated(args.count):
        if url in seen:
            continue
        seen.add(url)
        line = {"url": url}
        try:
            req = Request(url)
            line.update({
                "request_url": req.url,
                "fp_url": canonicalize_url(req.url),
                "fp27": scrapy_request.fingerprint(req).hex(),
                "fp27_kf": scrapy_request.fingerprint(req, keep_fragments=True).hex(),
                "fp26": legacy(req) if legacy else None,
                "fp26_kf": legacy(req, keep_fragments=True) if legacy else None,
                "fp_redis": redis_fp(None, req),
                "error": None,
            })
        except Exception as error:  # noqa: BLE001 - the test compares the exact error
            line.update({key: None for key in ("request_url", "fp_url", "fp27", "fp27_kf", "fp26", "fp26_kf", "fp_redis")})
            line["error"] = f"{type(error).__name__}: {error}"
        print(json.dumps(line))


if __name__ == "__main__":
    main()
