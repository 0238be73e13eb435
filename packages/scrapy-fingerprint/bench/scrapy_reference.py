"""Reference side of bench/run.mjs: the same workload through Scrapy's Request + fingerprint() and w3lib's
canonicalize_url. Reads {"cases": [...], "n": N, "rounds": R} as JSON on stdin, prints JSON rates."""
import json
import resource
import sys
import time

import scrapy
import w3lib
from scrapy import Request
from scrapy.utils.request import fingerprint
from w3lib.url import canonicalize_url


def rate(fn, items, rounds):
    best_wall, best_cpu = 0.0, 0.0
    for _ in range(rounds):
        w0, c0 = time.perf_counter(), time.process_time()
        fn(items)
        w1, c1 = time.perf_counter(), time.process_time()
        best_wall = max(best_wall, len(items) / (w1 - w0))
        best_cpu = max(best_cpu, len(items) / max(c1 - c0, 1e-9))
    return {"wall": best_wall, "cpu": best_cpu}


def main():
    spec = json.load(sys.stdin)
    n, rounds = spec["n"], spec["rounds"]
    fp_cases = [c for c in spec["cases"] if c["fp"]]
    canon_cases = [c for c in spec["cases"] if c["canon"]]
    fp_items = [fp_cases[i % len(fp_cases)] for i in range(n)]
    canon_urls = [canon_cases[i % len(canon_cases)]["url"] for i in range(n)]
    for c in fp_items:
        c.setdefault("_body", bytes.fromhex(c["body_hex"]) if c.get("body_hex") is not None else c.get("body"))

    def run_fp(items):
        for c in items:
            req = Request(c["url"], method=c.get("method", "GET"), body=c["_body"], headers=c.get("headers"))
            fingerprint(req, include_headers=c.get("include_headers"), keep_fragments=c.get("keep_fragments", False))

    def run_canon(items):
        for u in items:
            canonicalize_url(u)

    out = {
        "versions": {"scrapy": scrapy.__version__, "w3lib": getattr(w3lib, "__version__", "?"),
                     "python": sys.version.split()[0]},
        "canonicalize": rate(run_canon, canon_urls, rounds),
        "fingerprint": rate(run_fp, fp_items, rounds),
        "maxRssMiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    json.dump(out, sys.stdout)


main()
