#pragma once
// Small helpers shared by the custom operations' kernels (ops/*.cu).
#include "../cuda_check.h"
#include "../cuda_ops.h"

namespace kc {

constexpr int kTile = 16; // custom image kernels use 16x16 blocks, one thread per output pixel

inline dim3 tile_grid(const OpParams& p) { return dim3((p.width + kTile - 1) / kTile, (p.height + kTile - 1) / kTile); }

inline void check_launch(cudaStream_t stream) {
    KC_CUDA_CHECK_THROW(cudaGetLastError());
#ifdef KC_DEBUG_SYNC
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
#else
    (void)stream;
#endif
}

} // namespace kc
