#!/usr/bin/python3
"""Bad input (docs/reliability.md): a few hundred malformed or mutated
configs and body files, each run through `grains validate CONFIG` and
`grains run CONFIG --steps 1`. Every run must end with a non-zero exit status
(never a signal, never an uncaught exception), and its message must name the
offending key (or the file and line, for broken YAML and CSV). A mutation that
turns out to be valid input (e.g. removing an optional key) is accepted and
not counted. A failed run must not touch files already in its output
directory. Prints the cases per category and the outcome.

Usage: bad_input_test.py GRAINS_BINARY SOURCE_DIR [--jobs N] [--verbose]
"""
import argparse
import concurrent.futures
import copy
import os
import random
import shutil
import subprocess
import sys
import tempfile

import yaml

UNCAUGHT = ("terminate called", "what():", "Segmentation", "Aborted", "core dumped",
            "std::bad_alloc", "MPI_ABORT", "Assertion")

BASE = {
    "simulation": {"dt": 0.005, "steps": 2, "gravity": [0, 0, -9.81], "seed": 7},
    "bodies": {"shape": "sphere", "radius": 0.1, "mass": 1.0,
               "generator": {"type": "lattice", "count": 8, "spacing": 0.25,
                             "region": {"type": "box", "min": [0, 0, 0], "max": [0.5, 0.5, 0.5]}}},
    "walls": [{"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
              {"type": "cylinder", "side": "inside", "point": [0.25, 0.25, 0], "radius": 1.0}],
    "contact": {"friction": "coulomb", "mu": 0.3, "envelope": 0.0},
    "solver": {"name": "apgd", "tolerance": 1e-6, "max_iterations": 100},
    "parallel": {"partitioner": "rcb", "imbalance_threshold": 1.1},
    "output": {"vtk_every": 0, "log_every": 0, "metrics_every": 1},
}


class Case:
    def __init__(self, category, name, files, expect, config="config.yaml"):
        self.category = category
        self.name = name
        self.files = files        # {relative path: bytes}
        self.expect = expect      # substrings: the message must contain one of them
        self.config = config      # the path handed to grains (relative, or absolute)


def dump(document):
    return yaml.safe_dump(document, sort_keys=False).encode()


def leaves(node, path=()):
    """(path, value) of every scalar and list of numbers in a config."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, path + (key,))
    elif isinstance(node, list) and node and isinstance(node[0], dict):
        for i, value in enumerate(node):
            yield from leaves(value, path + (i,))
    else:
        yield path, node


def with_value(path, value, base=BASE):
    document = copy.deepcopy(base)
    node = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return document


def without(path, base=BASE):
    document = copy.deepcopy(base)
    node = document
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return document


def dotted(path):
    """The key path as grains prints it (walls.1.radius)."""
    return ".".join(str(key) for key in path)


def last_key(path):
    keys = [k for k in path if isinstance(k, str)]
    return keys[-1]


def generate():
    cases = []
    scalars = [(p, v) for p, v in leaves(BASE)]
    # 1. Wrong types: a word, a map, a list where a number or name is expected, and the reverse.
    for path, value in scalars:
        key = dotted(path)
        for label, bad in (("word", "abc"), ("map", {"x": 1}), ("nested list", [[1, 2]])):
            if isinstance(value, str) and label == "word":
                continue
            cases.append(Case("wrong type", f"{key} = {label}", {"config.yaml": dump(with_value(path, bad))},
                              [key, last_key(path)]))
        if isinstance(value, list):
            cases.append(Case("wrong type", f"{key} = 2 numbers", {"config.yaml": dump(with_value(path, value[:2]))},
                              [key, last_key(path)]))
            cases.append(Case("wrong type", f"{key} = scalar", {"config.yaml": dump(with_value(path, 1.0))},
                              [key, last_key(path)]))
    # 2. Missing keys (only those grains needs are counted).
    for path, _ in scalars:
        cases.append(Case("missing key", dotted(path), {"config.yaml": dump(without(path))},
                          [dotted(path), last_key(path)]))
    for section in ("simulation", "bodies"):
        cases.append(Case("missing key", section, {"config.yaml": dump(without((section,)))},
                          [section]))
    # 3. NaN, infinities, negative and zero sizes.
    for path in (("simulation", "dt"), ("bodies", "radius"), ("bodies", "mass"),
                 ("bodies", "generator", "spacing"), ("contact", "mu"), ("solver", "tolerance"),
                 ("walls", 1, "radius"), ("parallel", "imbalance_threshold"),
                 ("bodies", "generator", "count"), ("simulation", "steps")):
        for label, bad in (("nan", float("nan")), ("inf", float("inf")), ("-inf", float("-inf")),
                           ("negative", -1.0), ("zero", 0.0)):
            cases.append(Case("NaN, negative or zero size", f"{dotted(path)} = {label}",
                              {"config.yaml": dump(with_value(path, bad))}, [dotted(path)]))
    for index, label in ((0, "x"), (1, "y"), (2, "z")):
        region_max = [0.5, 0.5, 0.5]
        region_max[index] = float("nan")
        cases.append(Case("NaN, negative or zero size", f"region.max.{label} = nan",
                          {"config.yaml": dump(with_value(("bodies", "generator", "region", "max"), region_max))},
                          ["bodies.generator.region.max"]))
        gravity = [0, 0, -9.81]
        gravity[index] = float("inf")
        cases.append(Case("NaN, negative or zero size", f"gravity.{label} = inf",
                          {"config.yaml": dump(with_value(("simulation", "gravity"), gravity))},
                          ["simulation.gravity"]))
    # 4. Huge counts and overflowing numbers.
    big_region = {"type": "box", "min": [0, 0, 0], "max": [1e6, 1e6, 1e6]}
    for label, document, key in (
            ("lattice count 1e12", with_value(("bodies", "generator"), {"type": "lattice", "count": 10**12, "region": big_region}), "bodies.generator.count"),
            ("lattice count 2^63", with_value(("bodies", "generator"), {"type": "lattice", "count": 2**63, "region": big_region}), "bodies.generator.count"),
            ("random count 1e10", with_value(("bodies", "generator"), {"type": "random", "count": 10**10, "region": big_region}), "bodies.generator.count"),
            ("chainmail 10000 x 10000", with_value(("bodies",), {"shape": "torus", "radius": 0.1, "major_radius": 1.0, "mass": 1.0, "generator": {"type": "chainmail", "rings_x": 10000, "rings_y": 10000}}), "bodies.generator.rings"),
            ("steps 1e30", with_value(("simulation", "steps"), 10**30), "simulation.steps"),
            ("end_time / dt overflows", with_value(("simulation",), {"dt": 1e-300, "end_time": 1e300}), "simulation.end_time"),
            ("dt 1e400", with_value(("simulation", "dt"), "1e400"), "simulation.dt"),
            ("radius 1e400", with_value(("bodies", "radius"), "1e400"), "bodies.radius"),
            ("max_iterations 1e20", with_value(("solver", "max_iterations"), 10**20), "solver.max_iterations"),
            ("seed 1e30", with_value(("simulation", "seed"), 10**30), "simulation.seed"),
            ("wall normal 1e300", with_value(("walls", 0, "normal"), [1e300, 1e300, 1e300]), "walls.0.normal"),
            ("wall normal zero", with_value(("walls", 0, "normal"), [0, 0, 0]), "walls.0.normal"),
            ("mu 1e308 squared", with_value(("contact", "mu"), 1e308), "contact.mu")):
        text = dump(document)
        if b"'1e400'" in text:
            text = text.replace(b"'1e400'", b"1e400")
        cases.append(Case("huge or overflowing", label, {"config.yaml": text}, [key]))
    # 5. Unknown keys, wrong names and duplicate keys.
    for path, _ in scalars[:12]:
        document = copy.deepcopy(BASE)
        node = document
        for key in path[:-1]:
            node = node[key]
        if isinstance(path[-1], str):
            node[path[-1] + "x"] = node.pop(path[-1])
            cases.append(Case("unknown or duplicate key", f"typo {dotted(path)}x", {"config.yaml": dump(document)},
                              [dotted(path) + "x", dotted(path)]))
    for label, text, key in (
            ("unknown section", dump(BASE) + b"simulaton: {dt: 1}\n", "simulaton"),
            ("duplicate section", dump(BASE) + b"solver: {name: pgs}\n", "solver"),
            ("duplicate key", dump(BASE).replace(b"  dt: 0.005\n", b"  dt: 0.005\n  dt: 0.01\n"), "simulation.dt"),
            ("bad enum friction", dump(with_value(("contact", "friction"), "sticky")), "contact.friction"),
            ("bad enum solver", dump(with_value(("solver", "name"), "magic")), "solver.name"),
            ("bad enum shape", dump(with_value(("bodies", "shape"), "cube")), "bodies.shape"),
            ("bad enum wall", dump(with_value(("walls", 0, "type"), "mirror")), "walls.0.type"),
            ("bad solver option", dump(with_value(("solver", "options"), {"omega": 1.0})), "solver.options"),
            ("walls not a list", dump(with_value(("walls",), {"type": "plane"})), "walls"),
            ("top level a list", b"- simulation\n- bodies\n", "expected a map")):
        cases.append(Case("unknown or duplicate key", label, {"config.yaml": text}, [key]))
    # 6. Truncated YAML: the base text cut at many places.
    full = dump(BASE)
    cuts = sorted(set(int(len(full) * f) for f in [i / 41 for i in range(1, 41)]))
    for cut in cuts:
        text = full[:cut]
        keys = [k for k, _ in leaves(BASE)]
        cases.append(Case("truncated YAML", f"cut at byte {cut}", {"config.yaml": text},
                          ["line", "config.yaml:"] + [dotted(k) for k in keys] + ["simulation", "bodies"]))
    for label, text in (("unclosed flow map", b"simulation: {dt: 0.005, steps: 2\n"),
                        ("unclosed quote", b"simulation: {dt: \"0.005}\n"),
                        ("bad indentation", b"simulation:\n  dt: 0.005\n    steps: 2\n"),
                        ("tab indentation", b"simulation:\n\tdt: 0.005\n"),
                        ("multi-document", dump(BASE) + b"---\n" + dump(BASE))):
        cases.append(Case("truncated YAML", label, {"config.yaml": text}, ["config.yaml:"]))
    # 7. Binary junk, NUL bytes, invalid UTF-8, byte-order marks, empty files.
    rng = random.Random(2024)
    for i in range(12):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
        cases.append(Case("binary junk", f"random bytes #{i}", {"config.yaml": junk}, ["config.yaml"]))
    for label, text in (("NUL in a value", full.replace(b"0.005", b"0.0\x0005")),
                        ("NUL at the start", b"\x00" + full),
                        ("invalid UTF-8 in a key", full.replace(b"radius", b"rad\xffius", 1)),
                        ("overlong UTF-8", full.replace(b"sphere", b"sph\xc0\xafere", 1)),
                        ("UTF-16 text", full.decode().encode("utf-16")),
                        ("empty file", b""),
                        ("only a comment", b"# nothing here\n"),
                        ("gzip header", b"\x1f\x8b\x08\x00" + bytes(60))):
        cases.append(Case("binary junk", label, {"config.yaml": text}, ["config.yaml", "simulation"]))
    cases.append(Case("not a file", "a directory", {"dir/keep": b""}, ["dir"], config="dir"))
    cases.append(Case("not a file", "missing file", {}, ["nothing.yaml"], config="nothing.yaml"))
    cases.append(Case("not a file", "/dev/zero", {}, ["/dev/zero"], config="/dev/zero"))
    cases.append(Case("not a file", "/dev/null", {}, ["/dev/null", "simulation"], config="/dev/null"))
    # 8. Body files (CSV) for the file generator.
    file_config = with_value(("bodies",), {"radius": 0.1, "mass": 1.0,
                                          "generator": {"type": "file", "file": "bodies.csv"}})
    good_csv = "x,y,z,radius,mass\n0,0,0.1,0.1,1\n0.3,0,0.1,0.1,1\n"
    for label, text, expect in (
            ("no header", "0,0,0.1\n1,0,0.1\n", "bodies.csv:1"),
            ("header without z", "x,y\n0,0\n", "bodies.csv:1"),
            ("unknown column", "x,y,z,colour\n0,0,0.1,red\n", "bodies.csv:1"),
            ("duplicate column", "x,y,z,x\n0,0,0.1,0\n", "bodies.csv:1"),
            ("too few fields", "x,y,z\n0,0\n", "bodies.csv:2"),
            ("too many fields", "x,y,z\n0,0,0.1,4\n", "bodies.csv:2"),
            ("non-numeric", "x,y,z\n0,zero,0.1\n", "bodies.csv:2"),
            ("nan position", "x,y,z\n0,nan,0.1\n", "bodies.csv:2"),
            ("inf position", "x,y,z\n0,0,inf\n", "bodies.csv:2"),
            ("negative radius", "x,y,z,radius\n0,0,0.1,-0.1\n", "bodies.csv:2"),
            ("zero mass", "x,y,z,mass\n0,0,0.1,0\n", "bodies.csv:2"),
            ("huge number", "x,y,z\n0,0,1e400\n", "bodies.csv:2"),
            ("overlapping bodies", "x,y,z\n0,0,0.1\n0.05,0,0.1\n", "bodies 0 and 1 overlap"),
            ("empty file", "", "bodies.csv"),
            ("header only", "x,y,z\n", "bodies.csv"),
            ("binary junk", None, "bodies.csv"),
            ("NUL byte", "x,y,z\n0,0\x00,0.1\n", "bodies.csv:2"),
            ("broken third line", good_csv + "0.6,0,\n", "bodies.csv:4")):
        data = bytes(rng.randrange(256) for _ in range(300)) if text is None else text.encode()
        cases.append(Case("bad body file", label, {"config.yaml": dump(file_config), "bodies.csv": data}, [expect]))
    missing = with_value(("bodies", "generator", "file"), "absent.csv", file_config)
    cases.append(Case("bad body file", "missing file", {"config.yaml": dump(missing)}, ["absent.csv"]))
    return cases


def run(binary, args, cwd):
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "OMP_NUM_THREADS": "1",
           "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    try:
        done = subprocess.run([binary] + args, cwd=cwd, env=env, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, "timed out after 60 s"
    text = (done.stdout + done.stderr).decode(errors="replace")
    return done.returncode, text


def check(binary, case, root):
    """'accepted', 'ok', or a failure text."""
    work = tempfile.mkdtemp(dir=root)
    try:
        for name, data in case.files.items():
            path = os.path.join(work, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        config = case.config if os.path.isabs(case.config) else os.path.join(work, case.config)
        out = os.path.join(work, "out")
        os.makedirs(out)
        with open(os.path.join(out, "keep.txt"), "w") as f:
            f.write("results of an earlier run\n")
        outcomes = []
        for args in (["validate", config], ["run", config, "--steps", "1", "--output", out, "--overwrite"]):
            status, text = run(binary, args, work)
            outcomes.append((args[0], status, text))
        statuses = [s for _, s, _ in outcomes]
        if all(s == 0 for s in statuses):
            return "accepted"
        problems = []
        for command, status, text in outcomes:
            if status is None or status < 0:
                problems.append(f"{command}: killed by signal {-status if status else '?'} ({text[-200:]})")
            elif status == 0:
                problems.append(f"{command}: accepted what the other command refused")
            else:
                if any(marker in text for marker in UNCAUGHT):
                    problems.append(f"{command}: uncaught error: {text[-300:]}")
                if not any(token in text for token in case.expect):
                    problems.append(f"{command} (exit {status}): message names none of {case.expect[:4]}: "
                                    f"{text.strip()[-300:]}")
        with open(os.path.join(out, "keep.txt")) as f:
            if f.read() != "results of an earlier run\n":
                problems.append("a file in the output directory was changed")
        return "; ".join(problems) if problems else "ok"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("source")
    # Each grains process spends half of its ~0.2 s waiting for MPI's
    # singleton server to start, not computing: three per core keep the
    # cores busy.
    parser.add_argument("--jobs", type=int, default=min(8, 3 * (os.cpu_count() or 1)))
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    cases = generate()
    root = tempfile.mkdtemp(prefix="grains_bad_input_")
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda c: check(args.binary, c, root), cases))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    table = {}
    failures = []
    for case, result in zip(cases, results):
        row = table.setdefault(case.category, [0, 0, 0])
        if result == "accepted":
            row[2] += 1
        elif result == "ok":
            row[0] += 1
        else:
            row[1] += 1
            failures.append(f"[{case.category}] {case.name}: {result}")
        if args.verbose:
            print(f"{case.category:28s} {case.name:40s} {result[:150]}")
    print(f"{'category':28s} {'rejected well':>13s} {'failed':>7s} {'valid (not counted)':>20s}")
    for category, (ok, bad, accepted) in table.items():
        print(f"{category:28s} {ok:13d} {bad:7d} {accepted:20d}")
    counted = sum(r[0] + r[1] for r in table.values())
    print(f"{counted} malformed inputs x 2 commands (validate, run --steps 1): "
          f"{counted - len(failures)} rejected with a message naming the key or line, "
          f"{len(failures)} failed; {sum(r[2] for r in table.values())} mutations were valid input")
    for failure in failures:
        print("FAIL:", failure)
    if counted < 200:
        print(f"FAIL: only {counted} malformed inputs (at least 200 wanted)")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
