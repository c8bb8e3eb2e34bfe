#pragma once
// 256-bin histograms of A (luminance and R, G, B); the canvas shows A. Kernels in histogram.cu:
// variant 0 adds every pixel with atomics on global memory, variant 1 counts per block in shared
// memory and merges the block's bins into global memory at the end.
#include "gpu/ops/op_base.h"
#include "gpu/ops/sources.h"

namespace kc {

struct HistogramOp : CustomOp {
    static constexpr const char* name = "histogram";
    static constexpr const char* title = "Histogram";
    static constexpr const char* formula =
        "bins[Y(A)]++, bins[R]++, bins[G]++, bins[B]++ over all pixels (256 bins each); canvas shows A";
    static constexpr unsigned inputs = kUsesImageA;
    static constexpr int bytes_read_per_pixel = 4;
    static constexpr VariantNames variant_names{"global atomics", "shared-memory bins per block"};
    static constexpr bool makes_histogram = true;
    // 256 threads a block, one row of blocks (at most 1024: the shared variant merges once per
    // block), each thread striding over the pixels: kcanvas' grid-stride mapping.
    static constexpr int kBlock = 256, kMaxBlocks = 1024;
    static LaunchConfig own_launch(const OpParams& p) {
        const long long blocks = (1LL * p.width * p.height + kBlock - 1) / kBlock;
        return LaunchConfig{.block = {kBlock, 1, 1},
                            .grid = {static_cast<int>(blocks < kMaxBlocks ? blocks : kMaxBlocks), 1, 1},
                            .auto_grid = false,
                            .mapping = Mapping::GridStride};
    }

    static void cpu_paint(const OpParams& p, Pixel* out, OpOutputs* outputs) {
        OpOutputs scratch;
        OpOutputs& o = outputs ? *outputs : scratch;
        for (auto& h : o.histogram) h.fill(0);
        for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x) {
                const Pixel q = source_a(x, y, p);
                ++o.histogram[0][luma601(q)], ++o.histogram[1][q.r], ++o.histogram[2][q.g], ++o.histogram[3][q.b];
                out[1LL * y * p.width + x] = Pixel{q.b, q.g, q.r, 255};
            }
        o.has_histogram = true;
    }
    static void cuda_launch(const CudaCustomLaunch& l);
    // Its read-back hook (cuda_paint.h): the bins of the variants that ran, copied to the host
    // without waiting, then the shown variant's as OpOutputs::histogram (and how the two differ).
    static void cuda_read_back(const CudaCustomLaunch& l, bool both_variants, CudaReadback& rb);
    static void take_read_back(const CudaReadback& rb, OpOutputs& out);
};

} // namespace kc
