#!/usr/bin/env python3
"""The peers in the same run: the same image ops with CuPy (RawKernel and array expressions) and
OpenCV on the CPU, next to a device-to-device copy of the same bytes, so the figures compare with
`kcanvas bench` (whose %copy column uses the same yardstick). Needs cupy and opencv-python-headless
(the GPU machine's python has both). Images are BGRA uint8, as kcanvas's canvas.

    python3 bench/peers.py [--sizes 3840x2160,7680x4320] [--reps 100] [--csv peers.csv]
"""
import argparse
import csv
import statistics
import sys
import time

import numpy as np

try:
    import cupy as cp
except ImportError:  # pragma: no cover
    sys.exit("peers.py needs cupy")
try:
    import cv2
except ImportError:  # pragma: no cover
    cv2 = None

KERNELS = r'''
extern "C" __global__ void gradient(uchar4* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    out[y * w + x] = make_uchar4(255 - 255 * y / h, 255 - 255 * x / w, 128 - 128 * y / h, 255);
}
extern "C" __global__ void checkerboard(uchar4* out, int w, int h, int cell) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    unsigned char v = ((x / cell + y / cell) & 1) ? 255 : 0;
    out[y * w + x] = make_uchar4(v, v, v, 255);
}
extern "C" __global__ void blend(const uchar4* a, const uchar4* b, uchar4* out, int n, float wa) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uchar4 p = a[i], q = b[i];
    out[i] = make_uchar4(wa * p.x + (1 - wa) * q.x + 0.5f, wa * p.y + (1 - wa) * q.y + 0.5f,
                         wa * p.z + (1 - wa) * q.z + 0.5f, 255);
}
extern "C" __global__ void invert(const uchar4* a, uchar4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uchar4 p = a[i];
    out[i] = make_uchar4(255 - p.x, 255 - p.y, 255 - p.z, 255);
}
extern "C" __global__ void grayscale(const uchar4* a, uchar4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uchar4 p = a[i];
    unsigned char g = (114 * p.x + 587 * p.y + 299 * p.z + 500) / 1000;
    out[i] = make_uchar4(g, g, g, 255);
}
extern "C" __global__ void add(const uchar4* a, const uchar4* b, uchar4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uchar4 p = a[i], q = b[i];
    out[i] = make_uchar4(min(255, p.x + q.x), min(255, p.y + q.y), min(255, p.z + q.z), 255);
}
'''


def gpu_median_us(fn, reps, warmup=10):
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for i in range(warmup + reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        if i >= warmup:
            times.append(cp.cuda.get_elapsed_time(start, stop) * 1000.0)
    return statistics.median(times)


def cpu_median_us(fn, reps, warmup=3):
    times = []
    for i in range(warmup + reps):
        t0 = time.perf_counter()
        fn()
        if i >= warmup:
            times.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(times)


def sgemm_rows(sizes, reps):
    """cuBLAS SGEMM through cp.matmul on float32 (CuPy calls cuBLAS; TF32 stays off unless CUPY_TF32=1)."""
    rows = []
    for n in sizes:
        a = cp.random.default_rng(1).random((n, n), dtype=cp.float32)
        b = cp.random.default_rng(2).random((n, n), dtype=cp.float32)
        c = cp.empty_like(a)
        us = gpu_median_us(lambda: cp.matmul(a, b, out=c), max(3, min(reps, 20)), warmup=3)
        rows.append(dict(op="matmul_kernel", size=f"{n}x{n}", impl="cuBLAS SGEMM (CuPy)", us=round(us, 2), gbs=0,
                         pct_of_copy=0, gflops=round(2.0 * n ** 3 / (us * 1e3), 1)))
        del a, b, c
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="3840x2160,7680x4320")
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--cpu-reps", type=int, default=10)
    ap.add_argument("--csv", default="peers.csv")
    ap.add_argument("--matmul-sizes", default="1024,2048,4096", help="cuBLAS SGEMM (through CuPy) at these N; '' for none")
    args = ap.parse_args()

    mod = cp.RawModule(code=KERNELS)
    k = {name: mod.get_function(name) for name in ("gradient", "checkerboard", "blend", "invert", "grayscale", "add")}
    rows = []
    print(f"GPU: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}, CuPy {cp.__version__}, "
          f"OpenCV {cv2.__version__ if cv2 else 'absent'}")
    for size in args.sizes.split(","):
        w, h = map(int, size.split("x"))
        n = w * h
        rng = np.random.default_rng(1)
        a_host = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
        b_host = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
        a, b = cp.asarray(a_host), cp.asarray(b_host)
        out = cp.empty_like(a)
        # cudaMemcpy device to device, as kcanvas bench measures it
        copy_us = gpu_median_us(lambda: cp.cuda.runtime.memcpyAsync(out.data.ptr, a.data.ptr, a.nbytes,
                                                                     cp.cuda.runtime.memcpyDeviceToDevice,
                                                                     cp.cuda.get_current_stream().ptr), args.reps)
        copy_gbs = 2 * n * 4 / (copy_us * 1e3)
        grid2d, block2d = ((w + 31) // 32, (h + 7) // 8), (32, 8)
        grid1d, block1d = ((n + 255) // 256,), (256,)
        n32, w32, h32 = np.int32(n), np.int32(w), np.int32(h)
        af, bf = a.astype(cp.float32), b.astype(cp.float32)

        def add_row(op, impl, us, bytes_moved):
            gbs = bytes_moved / (us * 1e3)
            rows.append(dict(op=op, size=size, impl=impl, us=round(us, 2), gbs=round(gbs, 1),
                             pct_of_copy=round(100 * gbs / copy_gbs, 1), gflops=0))

        add_row("copy", "cudaMemcpy d2d", copy_us, 2 * n * 4)
        add_row("gradient", "cupy RawKernel", gpu_median_us(lambda: k["gradient"](grid2d, block2d, (out, w32, h32)), args.reps), 4 * n)
        add_row("checkerboard", "cupy RawKernel",
                gpu_median_us(lambda: k["checkerboard"](grid2d, block2d, (out, w32, h32, np.int32(80))), args.reps), 4 * n)
        add_row("blend", "cupy RawKernel",
                gpu_median_us(lambda: k["blend"](grid1d, block1d, (a, b, out, n32, np.float32(0.75))), args.reps), 12 * n)
        add_row("blend", "cupy expression",
                gpu_median_us(lambda: cp.rint(0.75 * af + 0.25 * bf).astype(cp.uint8), args.reps), 12 * n)
        add_row("invert", "cupy RawKernel", gpu_median_us(lambda: k["invert"](grid1d, block1d, (a, out, n32)), args.reps), 8 * n)
        add_row("invert", "cupy expression", gpu_median_us(lambda: cp.subtract(255, a, out=out), args.reps), 8 * n)
        add_row("grayscale", "cupy RawKernel", gpu_median_us(lambda: k["grayscale"](grid1d, block1d, (a, out, n32)), args.reps), 8 * n)
        add_row("grayscale", "cupy expression",
                gpu_median_us(lambda: (0.114 * af[..., 0] + 0.587 * af[..., 1] + 0.299 * af[..., 2]).astype(cp.uint8), args.reps),
                8 * n)
        add_row("add", "cupy RawKernel", gpu_median_us(lambda: k["add"](grid1d, block1d, (a, b, out, n32)), args.reps), 12 * n)
        add_row("add", "cupy expression",
                gpu_median_us(lambda: cp.minimum(a.astype(cp.uint16) + b, 255).astype(cp.uint8), args.reps), 12 * n)
        add_row("threshold", "cupy expression",
                gpu_median_us(lambda: cp.where(0.114 * af[..., 0] + 0.587 * af[..., 1] + 0.299 * af[..., 2] >= 128, 255, 0)
                              .astype(cp.uint8), args.reps), 8 * n)
        add_row("histogram", "cupy bincount",
                gpu_median_us(lambda: cp.bincount(a[..., 2].ravel(), minlength=256), args.reps), 4 * n)
        if cv2 is not None:
            bgr = np.ascontiguousarray(a_host[..., :3])
            rep = args.cpu_reps
            add_row("grayscale", "opencv cpu", cpu_median_us(lambda: cv2.cvtColor(a_host, cv2.COLOR_BGRA2GRAY), rep), 5 * n)
            add_row("invert", "opencv cpu", cpu_median_us(lambda: cv2.bitwise_not(a_host), rep), 8 * n)
            add_row("add", "opencv cpu", cpu_median_us(lambda: cv2.add(a_host, b_host), rep), 12 * n)
            add_row("blend", "opencv cpu", cpu_median_us(lambda: cv2.addWeighted(a_host, 0.75, b_host, 0.25, 0), rep), 12 * n)
            add_row("threshold", "opencv cpu",
                    cpu_median_us(lambda: cv2.threshold(cv2.cvtColor(a_host, cv2.COLOR_BGRA2GRAY), 127, 255, cv2.THRESH_BINARY), rep),
                    5 * n)
            add_row("box_blur r2", "opencv cpu", cpu_median_us(lambda: cv2.blur(bgr, (5, 5), borderType=cv2.BORDER_REPLICATE), rep), 6 * n)
            gray = cv2.cvtColor(a_host, cv2.COLOR_BGRA2GRAY)
            add_row("sobel", "opencv cpu", cpu_median_us(lambda: cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0),
                                                                                 cv2.Sobel(gray, cv2.CV_32F, 0, 1)), rep), 2 * n)
            add_row("histogram", "opencv cpu", cpu_median_us(lambda: cv2.calcHist([gray], [0], None, [256], [0, 256]), rep), n)
        del a, b, out, af, bf
        cp.get_default_memory_pool().free_all_blocks()

    if args.matmul_sizes:
        rows += sgemm_rows([int(n) for n in args.matmul_sizes.split(",")], args.reps)

    print(f"{'op':<13} {'size':>10} {'impl':<20} {'us':>10} {'GB/s':>8} {'%copy':>7} {'GFLOP/s':>9}")
    for r in rows:
        print(f"{r['op']:<13} {r['size']:>10} {r['impl']:<20} {r['us']:>10.1f} {r['gbs']:>8.1f} {r['pct_of_copy']:>6.1f}%"
              f" {r['gflops']:>9.1f}")
    with open(args.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {args.csv}")


if __name__ == "__main__":
    main()
