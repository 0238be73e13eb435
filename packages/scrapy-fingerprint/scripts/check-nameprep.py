#!/usr/bin/env python3
"""Print Python's nameprep of every single code point (and of pairs that exercise NFKC composition) as JSON lines
{"cp": [..code points..], "out": "<result>" | null}. Used by scripts/check-nameprep.mjs to check the TS port
exhaustively; not needed at run time."""
import json, sys
from encodings.idna import nameprep

def emit(cps, always=False):
    s = "".join(map(chr, cps))
    try:
        out = nameprep(s)
    except UnicodeError:
        out = None
    if always or out != s:
        sys.stdout.write(json.dumps({"cp": cps, "out": out}) + "\n")

for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    emit([cp])
# composition and reordering: a base letter followed by every combining mark of the BMP
import unicodedata
for cp in range(0x300, 0x10000):
    if unicodedata.combining(chr(cp)):
        for base in (0x61, 0x41, 0x3b1, 0x438, 0x1100, 0xac00):
            emit([base, cp], True)
