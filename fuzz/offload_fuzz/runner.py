"""Running a campaign: seeds in a process pool, each through its family's
generator and the oracle; per-pipeline counts, failure classes and the
summary line."""

import collections
import multiprocessing
import os
import sys
import tempfile
import time
import traceback

from .families import FAMILIES
from .gen_host import HOST_KERNELS, build_host_image
from .oracle import check_case, error_signature
from .tools import run


class Context:
    """What every job needs (picklable: it travels to the pool's workers)."""

    def __init__(self, args, image):
        self.opt = args.opt
        self.plugin = args.plugin
        self.timeout = args.timeout
        self.size = args.size
        self.keep = args.keep
        self.image = image
        self.deadline = time.time() + args.max_time if args.max_time else 0
        self.rustc = args.rustc
        self.rustc_kernels = args.rustc_kernels


def keep_failure(ctx, family, module, name, pipeline, klass, detail):
    os.makedirs(ctx.keep, exist_ok=True)
    prefix = "" if family == "stress" else f"{family}-"
    stem = os.path.join(ctx.keep, f"{prefix}{module.stem}-{name.replace('+', '-')}")
    with open(stem + ".ll", "w") as f:
        f.write(module.ir)
    with open(stem + ".log", "w") as f:
        f.write(f"{family} {module.stem} pipeline {pipeline}\nclass: {klass}\n{detail}\n")


def one_job(job):
    """Runs one seed of one family; returns (family, seed, results) with
    results [(pipeline name, status, class, detail)], None past the deadline."""
    family_name, seed, pipelines, ctx = job
    if ctx.deadline and time.time() > ctx.deadline:
        return family_name, seed, None
    family = FAMILIES[family_name]
    targets = sorted({target for _, _, target, _ in pipelines})
    results = []
    with tempfile.TemporaryDirectory(prefix="offload-fuzz-") as work:
        try:
            modules = family.generate(seed, targets, ctx)
        except Exception as e:  # a generator bug is a campaign failure, not a crash of the run
            where = traceback.extract_tb(e.__traceback__)[-1]
            return family_name, seed, [("(generator)", "failed", "generator error",
                                        f"{type(e).__name__}: {e} ({os.path.basename(where.filename)}:{where.lineno})")]
        for module in modules:
            src = os.path.join(work, f"{module.target}.ll")
            with open(src, "w") as f:
                f.write(module.ir)
            for name, pipeline, target, checks in pipelines:
                if target != module.target:
                    continue
                if target == "host":
                    # The image's kernels have no manifest (random host
                    # signatures launch them): named foreign, they are
                    # launched unchecked (the manifest checks have lit tests).
                    foreign = ":".join(HOST_KERNELS)
                    pipeline = f"{pipeline}<image={ctx.image};foreign={foreign}{module.expect.pipeline_params}>"
                status, klass, detail = check_case(ctx, name.replace("+", "-"), pipeline, checks, src,
                                                   module.expect, work)
                if status == "failed" and ctx.keep:
                    keep_failure(ctx, family_name, module, name, pipeline, klass, detail)
                if module.expect.variant and klass:
                    klass = f"{klass} [{module.expect.variant}]"
                results.append((name, status, klass, f"{module.stem}: {detail}"))
    return family_name, seed, results


def plugin_has_pass(opt, plugin, name):
    with tempfile.NamedTemporaryFile("w", suffix=".ll") as f:
        f.write("")
        f.flush()
        r = run([opt, f"-load-pass-plugin={plugin}", f"-passes={name}", "-disable-output", f.name])
    return r.returncode == 0


def select_pipelines(args, image_dir):
    """{family: [pipelines]} as --families and --pipelines ask, and the host
    image (built when the host pipeline runs)."""
    wanted = [p for p in args.pipelines.split(",") if p]
    names = list(FAMILIES) if args.families == "all" else [f for f in args.families.split(",") if f]
    selected, image = {}, None
    for family in names:
        if family not in FAMILIES:
            sys.exit(f"campaign: no family '{family}' (families: {', '.join(FAMILIES)})")
        for entry in FAMILIES[family].pipelines:
            name, pipeline, target, checks = entry
            if wanted and name not in wanted:
                continue
            if target == "host":
                # One x86_64 device image for the whole run.
                image = image or build_host_image(image_dir)
                if not plugin_has_pass(args.opt, args.plugin, f"offload-host<image={image}>"):
                    print("campaign: the plugin has no offload-host pass; skipped", file=sys.stderr)
                    continue
            selected.setdefault(family, []).append(entry)
    if not selected:
        sys.exit("campaign: no pipelines to run")
    return selected, image


def label(family, name):
    return name if family == "stress" else f"{family}/{name}"


def report(args, selected, counts, classes, refusals, done, started):
    for family, pipelines in selected.items():
        for name, *_ in pipelines:
            c = counts[(family, name)]
            print(f"  {label(family, name)}: {c['ok']} ok, {c['unsupported']} unsupported, {c['failed']} failed")
    for title, table in (("failure classes", classes), ("refusals (unsupported)", refusals)):
        if table:
            print(f"  {title}:")
            for (family, name, klass, sig), n in sorted(table.items(), key=lambda kv: (kv[0][:2], -kv[1])):
                print(f"    {label(family, name)}: {n} x {klass}: {sig}")
    total = {s: sum(c[s] for c in counts.values()) for s in ("ok", "unsupported", "failed")}
    n = sum(total.values())
    if len(selected) == 1:
        (family, pipelines), = selected.items()
        what = f"{done[family]} {FAMILIES[family].unit} x {len(pipelines)} pipelines"
        what += "" if family == "stress" else f", family {family}"
    else:
        what = f"{max(done.values(), default=0)} seeds x families " + ", ".join(
            f"{f} ({len(p)} pipelines)" for f, p in selected.items())
    print(f"campaign: {n} cases, {total['ok']} ok, {total['unsupported']} unsupported, "
          f"{total['failed']} failed ({what}, "
          f"seeds {args.start}..{args.start + args.cases - 1}, {time.time() - started:.0f} s)")
    return total["failed"]


def campaign(args):
    image_dir = tempfile.TemporaryDirectory(prefix="offload-fuzz-image-")
    selected, image = select_pipelines(args, image_dir.name)
    ctx = Context(args, image)
    started = time.time()
    jobs = [(family, args.start + i, pipelines, ctx)
            for i in range(args.cases) for family, pipelines in selected.items()]
    counts = {(f, name): collections.Counter() for f, ps in selected.items() for name, *_ in ps}
    classes = collections.Counter()
    refusals = collections.Counter()
    done = collections.Counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for family, seed, results in pool.imap_unordered(one_job, jobs, chunksize=4):
            if results is None:
                continue
            done[family] += 1
            for name, status, klass, detail in results:
                if name == "(generator)":
                    counts[(family, selected[family][0][0])][status] += 1
                else:
                    counts[(family, name)][status] += 1
                if status == "unsupported":
                    refusals[(family, name, "refused", error_signature(detail))] += 1
                if status == "failed":
                    classes[(family, name, klass, error_signature(detail))] += 1
                    if args.verbose:
                        print(f"FAILED {family} seed {seed} {name} [{klass}]: {detail}", file=sys.stderr)
    failed = report(args, selected, counts, classes, refusals if args.verbose else {}, done, started)
    image_dir.cleanup()
    return 1 if failed else 0
