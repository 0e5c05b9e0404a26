#!/usr/bin/python3
"""Exports a training checkpoint as a quantised Chariot net file.

    /usr/bin/python3 tools/nnue/export.py CHECKPOINT.pt --out-dir nets/   -> nets/chariot-<sha256[:12]>.nnue (+ .json)
    /usr/bin/python3 tools/nnue/export.py CHECKPOINT.pt --out FILE.nnue
"""

import sys

import model

if __name__ == "__main__":
    sys.exit(model.main())
