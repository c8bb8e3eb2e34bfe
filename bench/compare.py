#!/usr/bin/env python3
"""Merges what bench/compare.sh measured (OUT/kcanvas.csv, OUT/peers.csv, OUT/cublas.csv if there)
into one table: per op and size, every implementation's µs, % of a device copy (each tool's own
copy, measured in the same run) and its time over kcanvas's (below 1: faster than kcanvas).

kcanvas's reference row per op and size is the configuration a student meets first: one pixel per
thread with the default block (per-pixel ops), the fastest variant (two-variant ops), the fastest
kernel (matmul at N x N). Writes OUT/compare.csv and OUT/compare.md (GPU, driver, date).

    python3 bench/compare.py OUT
"""
import csv
import datetime
import os
import subprocess
import sys


def read(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def kcanvas_rows(path):
    rows = []
    for r in read(path):
        op = r["op"]
        impl = "kcanvas"
        if r["variant"] not in ("-", ""):
            impl += f" {r['variant']}"
        if r["mapping"] != "-":
            impl += f" {r['pixels_per_thread']} px/thread"
        gflops = float(r.get("gflops") or 0)
        # An op that counts arithmetic (matmul) is judged by GFLOP/s: its bytes are the heatmap's alone.
        pct = 0.0 if gflops else float(r["pct_of_copy"])
        rows.append(dict(op=op, size=r["size"], impl=impl, us=float(r["kernel_us"]), pct_of_copy=pct, gflops=gflops,
                         ref=r["mapping"] != "-" and r["pixels_per_thread"] == "1"))
    return rows


def peer_rows(path):
    return [dict(op=r["op"].split(" ")[0], size=r["size"], impl=r["impl"], us=float(r["us"]),
                 pct_of_copy=float(r["pct_of_copy"]), gflops=float(r.get("gflops") or 0), ref=False)
            for r in read(path) if r["op"] != "copy"]


def cublas_rows(path):
    return [dict(op="matmul_kernel", size=f"{r['n']}x{r['n']}", impl="cuBLAS SGEMM (linked)", us=float(r["us"]),
                 pct_of_copy=0.0, gflops=float(r["tflops"]) * 1000, ref=False) for r in read(path)]


def gpu_and_driver():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]
        return [s.strip() for s in out.split(",")]
    except (OSError, subprocess.CalledProcessError, IndexError):
        return ["unknown GPU", "unknown driver"]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    rows = kcanvas_rows(os.path.join(out, "kcanvas.csv")) + peer_rows(os.path.join(out, "peers.csv")) + \
        cublas_rows(os.path.join(out, "cublas.csv"))
    if not rows:
        sys.exit(f"compare.py: nothing measured under {out}")
    groups = {}
    for r in rows:
        groups.setdefault((r["op"], r["size"]), []).append(r)
    table = []
    for (op, size), group in groups.items():
        ours = [r for r in group if r["impl"].startswith("kcanvas")]
        refs = [r for r in ours if r["ref"]] or ours
        ref = min(refs, key=lambda r: r["us"]) if refs else None
        for r in sorted(group, key=lambda r: r["us"]):
            ratio = r["us"] / ref["us"] if ref else float("nan")
            table.append(dict(op=op, size=size, impl=r["impl"], us=round(r["us"], 2), pct_of_copy=round(r["pct_of_copy"], 1),
                              gflops=round(r["gflops"], 1), ratio_to_kcanvas=round(ratio, 3)))
    with open(os.path.join(out, "compare.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(table[0].keys()))
        w.writeheader()
        w.writerows(table)
    gpu, driver = gpu_and_driver()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# kcanvas and its peers, one run\n", f"{gpu}, driver {driver}, {date}. Kernel times (medians of CUDA events; "
             "OpenCV: wall clock on the host CPU). %copy: the bytes each must read and write per second over a "
             "device-to-device copy measured by the same tool in the same run. ratio: time over kcanvas's reference row "
             "(1 px/thread with the default block; the fastest variant; the fastest matmul kernel) - below 1 is faster "
             "than kcanvas.\n", "| op | size | implementation | µs | %copy | GFLOP/s | ratio to kcanvas |",
             "|---|---|---|---:|---:|---:|---:|"]
    for r in table:
        pct = f"{r['pct_of_copy']:.1f} %" if r["pct_of_copy"] else ""
        gf = f"{r['gflops']:.0f}" if r["gflops"] else ""
        lines.append(f"| {r['op']} | {r['size']} | {r['impl']} | {r['us']:.1f} | {pct} | {gf} | {r['ratio_to_kcanvas']:.2f} |")
    with open(os.path.join(out, "compare.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{'op':<13} {'size':>10} {'implementation':<52} {'us':>10} {'%copy':>7} {'GFLOP/s':>9} {'ratio':>6}")
    for r in table:
        print(f"{r['op']:<13} {r['size']:>10} {r['impl']:<52} {r['us']:>10.1f} {r['pct_of_copy']:>6.1f}% "
              f"{r['gflops']:>9.1f} {r['ratio_to_kcanvas']:>6.2f}")
    print(f"wrote {out}/compare.csv and {out}/compare.md")


if __name__ == "__main__":
    main()
