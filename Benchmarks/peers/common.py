"""Shared helpers for the compositor bench peers: the inputs transvid-bench
wrote (raw premultiplied RGBA frames + frames.json) and median timing."""
import json
import os
import sys
import time

import numpy as np


def load(out_dir):
    with open(os.path.join(out_dir, "frames.json")) as f:
        params = json.load(f)
    w, h = params["width"], params["height"]

    def rgba(name, shape):
        a = np.fromfile(os.path.join(out_dir, params[name]), dtype=np.uint8)
        return a.reshape(shape[1], shape[0], 4)

    images = {
        "from": rgba("from", (w, h)),
        "to": rgba("to", (w, h)),
        "cell": rgba("cell", params["cell_size"]),
    }
    return params, images


def median_ms(runs, body, cpu=False):
    """Median time of `runs` calls after two warm-ups, in ms: wall clock,
    or with `cpu` this thread's CPU time (what a loaded machine's other
    processes do not inflate; the peers are single-threaded)."""
    clock = time.thread_time if cpu else time.perf_counter
    body()
    body()
    times = []
    for _ in range(runs):
        t = clock()
        body()
        times.append((clock() - t) * 1000)
    times.sort()
    return times[len(times) // 2]


def erf(x):
    """Abramowitz–Stegun 7.1.26 (|error| < 1.5e-7), vectorised."""
    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-a * a)
    return s * y


def box_profile(lo, hi, sigma, start, count):
    """∫ of a unit box [lo, hi] blurred by a Gaussian σ over each pixel
    centre start+i+0.5 (the exact separable factor of a blurred rectangle)."""
    x = np.arange(count, dtype=np.float64) + start + 0.5
    k = 1.0 / (np.sqrt(2.0) * sigma)
    return 0.5 * (erf((hi - x) * k) - erf((lo - x) * k))


def write_json(path, values):
    with open(path, "w") as f:
        json.dump(values, f)


def runs_from_argv(default=21):
    return int(sys.argv[2]) if len(sys.argv) > 2 else default
