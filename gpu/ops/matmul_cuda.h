#pragma once
// The matmul kernels on their own, for timing them without the heatmap (kcanvas bench) and for
// tests. CUDA code only; a, b and c are N x N floats in device memory, N a multiple of 16.
#include <cuda_runtime.h>

#include "gpu/ops/matmul.h"

namespace kc {

// The multiply kernels are the op's variants (MatmulOp::variant_names): 0 naive (global memory),
// 1 tiled 16x16 (shared memory), 2 register-blocked (128x128 tile a block, 8x8 of C a thread).
constexpr int kMatmulKernels = MatmulOp::variants;

// A and B as the op fills them (matmul_input), so every kernel multiplies the same matrices.
void matmul_fill_inputs(float* a, float* b, int n, cudaStream_t stream);
// C = A*B with kernel `variant` (0..kMatmulKernels-1), asynchronous on `stream`.
void matmul_multiply(int variant, const float* a, const float* b, float* c, int n, cudaStream_t stream);

} // namespace kc
